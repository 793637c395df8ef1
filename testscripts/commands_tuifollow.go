package testscripts

import (
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("tui-still", tuiStill)
}

// tui-still TOP BOTTOM LEFT RIGHT asserts the pane's rows TOP..BOTTOM,
// columns LEFT..RIGHT (0-based, inclusive) do not change for 2 s while
// the task goes on: a paused view never moves.
func tuiStill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: tui-still TOP BOTTOM LEFT RIGHT")
	}
	n := make([]int, 4)
	for i, a := range args {
		v, err := strconv.Atoi(a)
		if err != nil {
			ts.Fatalf("tui-still: %q is not a number", a)
		}
		n[i] = v
	}
	region := func() string {
		rows := strings.Split(screen(ts), "\n")
		var b strings.Builder
		for y := n[0]; y <= n[1] && y < len(rows); y++ {
			r := []rune(rows[y])
			b.WriteString(string(r[min(n[2], len(r)):min(n[3]+1, len(r))]))
			b.WriteByte('\n')
		}
		return b.String()
	}
	before := region()
	time.Sleep(2 * time.Second)
	if after := region(); after != before {
		ts.Fatalf("the paused view moved:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
