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
// exited (it may linger as a zombie of an unrelated reaper). A sandboxed
// command runs in a PID namespace of its own, so the pid it wrote ($$) is
// the one it has there: the process is looked for as one whose innermost
// pid (NSpid's last) is that and whose working directory is beneath
// $WORK, which also finds an unsandboxed one by its host pid.
func init() {
	register("gone", func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: [!] gone pidfile")
		}
		pid := strings.TrimSpace(ts.ReadFile(args[0]))
		host := liveInnerPID(pid, ts.Getenv("WORK"))
		switch {
		case neg && host == "":
			// "! gone" first proves the process is found while it
			// runs, so that a later gone or wait-gone is not vacuous.
			ts.Fatalf("process %s is not running (no live process has that innermost pid beneath $WORK)", pid)
		case !neg && host != "":
			stat, _ := os.ReadFile("/proc/" + host + "/stat")
			ts.Fatalf("process %s (host pid %s) is still running: %s", pid, host, stat)
		}
	})
}

// liveInnerPID is the host pid of a live process whose innermost pid is
// inner and whose working directory is beneath dir, "" when none.
func liveInnerPID(inner, dir string) string {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		status, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		var nspid []string
		zombie := false
		for _, l := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(l, "NSpid:"); ok {
				nspid = strings.Fields(v)
			}
			if v, ok := strings.CutPrefix(l, "State:"); ok {
				zombie = strings.HasPrefix(strings.TrimSpace(v), "Z")
			}
		}
		if zombie || len(nspid) == 0 || nspid[len(nspid)-1] != inner {
			continue
		}
		if cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd"); err == nil && (cwd == dir || strings.HasPrefix(cwd, dir+"/")) {
			return e.Name()
		}
	}
	return ""
}
