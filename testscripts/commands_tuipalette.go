package testscripts

import (
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("tui-pause", tuiPause) }

// tui-pause DURATION waits, so a key lands after a dialog's arming window
// (keys inside it are ignored by design: a repeat or a paste cannot
// confirm).
func tuiPause(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tui-pause DURATION (e.g. 600ms)")
	}
	d, err := time.ParseDuration(args[0])
	if err != nil || d <= 0 || d > 10*time.Second {
		ts.Fatalf("tui-pause: %q is not a duration between 0 and 10s (e.g. 600ms)", args[0])
	}
	time.Sleep(d)
}
