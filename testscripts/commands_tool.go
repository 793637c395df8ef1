package testscripts

import (
	"os"

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
