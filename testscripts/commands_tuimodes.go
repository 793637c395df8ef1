package testscripts

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"
)

// Commands for what the terminal itself reports or sends: the pane's
// mode flags, input bytes a terminal would send (focus reports, SGR mouse
// clicks), and whether the program draws at all.
func init() {
	register("tui-raw", tuiRaw)
	register("tui-flag", tuiFlag)
	register("tui-quiet", tuiQuiet)
	register("tui-click", tuiClick)
}

// tui-click REGEXP clicks (an SGR press and release of the left button,
// what a terminal sends with mouse capture on) at the first cell of the
// first screen row matching REGEXP.
func tuiClick(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tui-click REGEXP")
	}
	re := regexp.MustCompile(args[0])
	for y, row := range strings.Split(screen(ts), "\n") {
		if loc := re.FindStringIndex(row); loc != nil {
			x := utf8.RuneCountInString(row[:loc[0]])
			at := fmt.Sprintf("%d;%d", x+1, y+1) // SGR coordinates are 1-based
			tuiRaw(ts, false, []string{`\e[<0;` + at + `M\e[<0;` + at + `m`})
			return
		}
	}
	ts.Fatalf("tui-click: no row matches %q:\n%s", args[0], screen(ts))
}

// tui-raw TEXT writes TEXT, with Go escapes (\x1b, \e for ESC), to the
// pane's input in one piece, as a terminal would send a report.
func tuiRaw(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tui-raw TEXT")
	}
	s, err := strconv.Unquote(`"` + strings.ReplaceAll(args[0], `\e`, `\x1b`) + `"`)
	if err != nil {
		ts.Fatalf("tui-raw: %q is not a Go-escaped string: %v", args[0], err)
	}
	h := hex.EncodeToString([]byte(s))
	keys := []string{"send-keys", "-t", "tui", "-H"}
	for i := 0; i < len(h); i += 2 {
		keys = append(keys, h[i:i+2])
	}
	mustTmux(ts, keys...)
}

// tui-flag NAME VALUE waits up to 30 s until tmux's pane format #{NAME}
// (mouse_any_flag, mouse_sgr_flag, alternate_on…) reads VALUE: what the
// terminal believes the program asked for.
func tuiFlag(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tui-flag NAME VALUE")
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := strings.TrimSpace(mustTmux(ts, "display-message", "-p", "-t", "tui", "#{"+args[0]+"}"))
		if got == args[1] {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("pane flag %s is %q, want %q", args[0], got, args[1])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tui-quiet SECONDS asserts the program writes no byte to the terminal
// for SECONDS, after one second for output already on its way to land.
func tuiQuiet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tui-quiet SECONDS")
	}
	secs, err := strconv.ParseFloat(args[0], 64)
	if err != nil {
		ts.Fatalf("tui-quiet: %q is not a number of seconds", args[0])
	}
	size := func() int64 {
		fi, err := os.Stat(filepath.Join(ts.Getenv("WORK"), "tui.bytes"))
		if err != nil {
			ts.Fatalf("tui-quiet: %v", err)
		}
		return fi.Size()
	}
	time.Sleep(time.Second)
	before := size()
	time.Sleep(time.Duration(secs * float64(time.Second)))
	if after := size(); after != before {
		ts.Fatalf("the program wrote %d bytes in %s s that should have been quiet", after-before, args[0])
	}
}
