package testscripts

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("kill-tool-backend", killToolBackend) }

// kill-tool-backend sends SIGKILL to the live "fluzo-tool serve" child of
// this script's agent (its working directory is inside $WORK; scripts run
// in parallel), waiting up to a minute for one to exist. The commands it
// started die with it; their orphans go to the agent, which ends them.
func killToolBackend(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: kill-tool-backend")
	}
	work, _ := filepath.EvalSymlinks(ts.Getenv("WORK"))
	for i := 0; i < 6000; i++ {
		if pid := toolBackendPID(work); pid > 0 {
			ts.Check(syscall.Kill(pid, syscall.SIGKILL))
			ts.Logf("killed fluzo-tool serve pid %d", pid)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Fatalf("no fluzo-tool serve process appeared within a minute")
}

// toolBackendPID finds a running "fluzo-tool serve" whose working
// directory is inside work (0 when there is none).
func toolBackendPID(work string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		argv := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if err != nil || len(argv) < 2 || filepath.Base(argv[0]) != "fluzo-tool" || argv[1] != "serve" {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && strings.HasPrefix(cwd, work) {
			return pid
		}
	}
	return 0
}

func init() { register("wait-file", waitFile) }

// wait-file PATH waits (up to a minute) until PATH exists: the work of a
// process this script does not wait for (an orphan of a killed backend).
func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: wait-file PATH")
	}
	for i := 0; i < 600; i++ {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	ts.Fatalf("%s did not appear within a minute", args[0])
}
