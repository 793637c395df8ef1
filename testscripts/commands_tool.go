package testscripts

import (
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// Commands for the fluzo-tool scripts: special files that txtar archives
// cannot carry.
func init() {
	register("mkfifo", func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: mkfifo path")
		}
		ts.Check(unix.Mkfifo(ts.MkAbs(args[0]), 0o644))
	})
	register("hardlink", func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: hardlink existing new")
		}
		ts.Check(os.Link(ts.MkAbs(args[0]), ts.MkAbs(args[1])))
	})
}

// gone PIDFILE asserts that the process whose pid the file holds has
// exited (it may linger as a zombie of an unrelated reaper).
func init() {
	register("gone", func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: gone pidfile")
		}
		pid := strings.TrimSpace(ts.ReadFile(args[0]))
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err == nil && !strings.Contains(string(stat), ") Z ") {
			ts.Fatalf("process %s is still running: %s", pid, stat)
		}
	})
}
