package testscripts

import (
	"context"
	"os/exec"

	"encoding/json"
	"github.com/josecorral/fluzo/lib/store"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("rust-toolchain", rustToolchain)
}

// rust-toolchain makes the machine's Rust toolchain usable under the
// script's isolated HOME: a rustup installation is found through
// $HOME/.rustup and $HOME/.cargo, which are linked to the real ones (a
// distribution cargo needs nothing). With outside-home, HOME stays empty
// and RUSTUP_HOME and CARGO_HOME point at the real installation instead,
// as in official Rust images. It then runs cargo --version with the
// script's environment and fails the script when that does not work, so a
// missing toolchain is never a silent pass.
func rustToolchain(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 || (len(args) == 1 && args[0] != "outside-home") {
		ts.Fatalf("usage: rust-toolchain [outside-home]")
	}
	outside := len(args) == 1
	realHome, _ := os.UserHomeDir()
	home := ts.Getenv("HOME")
	cargoEnv := []string{"PATH=" + ts.Getenv("PATH"), "HOME=" + home}
	for name, env := range map[string]string{".rustup": "RUSTUP_HOME", ".cargo": "CARGO_HOME"} {
		src := os.Getenv(env)
		if src == "" && realHome != "" {
			src = filepath.Join(realHome, name)
		}
		dst := filepath.Join(home, name)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		if outside {
			ts.Setenv(env, src)
			continue
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Symlink(src, dst); err != nil {
			ts.Fatalf("rust-toolchain: %v", err)
		}
	}
	if outside {
		cargoEnv = append(cargoEnv, "RUSTUP_HOME="+ts.Getenv("RUSTUP_HOME"), "CARGO_HOME="+ts.Getenv("CARGO_HOME"))
	}
	cmd := exec.Command("cargo", "--version")
	cmd.Env = cargoEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		ts.Fatalf("rust-toolchain: cargo does not run (%v): %s; install Rust (rustup or the distribution's cargo)", err, out)
	}
}

func init() { register("result-env", resultEnv) }

// result-env NAME FIELD sets $NAME to a field ("task", "session",
// "attempt", "status") of the last {"type":"result"} record in the
// previous command's stdout.
func resultEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: result-env NAME FIELD")
	}
	lines := strings.Split(strings.TrimSpace(ts.ReadFile("stdout")), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var rec map[string]any
		if json.Unmarshal([]byte(lines[i]), &rec) != nil || rec["type"] != "result" {
			continue
		}
		v, ok := rec[args[1]].(string)
		if !ok {
			ts.Fatalf("result-env: the result has no string field %q", args[1])
		}
		ts.Setenv(args[0], v)
		return
	}
	ts.Fatalf("result-env: no result record in stdout")
}

func init() { register("ack-env", ackEnv) }

// ack-env NAME FIELD sets $NAME to data.FIELD of the ack record the
// previous command printed (e.g. the task of 'fluzo-agent status').
func ackEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: ack-env NAME FIELD")
	}
	var rec struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(ts.ReadFile("stdout"))), &rec); err != nil || rec.Type != "ack" {
		ts.Fatalf("ack-env: stdout is not one ack record")
	}
	v, ok := rec.Data[args[1]].(string)
	if !ok {
		ts.Fatalf("ack-env: the ack has no string field %q", args[1])
	}
	ts.Setenv(args[0], v)
}

func init() { register("wait-process", waitProcess) }

// wait-process CMDLINE waits (up to a minute) until a process whose
// command line is exactly CMDLINE and whose working directory is inside
// this script's $WORK exists, reading /proc (scripts run in parallel).
func waitProcess(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: wait-process CMDLINE")
	}
	want := strings.Fields(args[0])
	work, _ := filepath.EvalSymlinks(ts.Getenv("WORK"))
	for i := 0; i < 6000; i++ {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err != nil || !sameCommand(strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), want) {
				continue
			}
			cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
			if err == nil && strings.HasPrefix(cwd, work) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Fatalf("no process %q appeared within a minute", args[0])
}

func init() { register("event-env", eventEnv) }

// event-env NAME TYPE FIELD sets $NAME to FIELD of the first JSON record
// of type TYPE in the previous command's stdout (a run killed before its
// result still printed its events).
func eventEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: event-env NAME TYPE FIELD")
	}
	for _, line := range strings.Split(ts.ReadFile("stdout"), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["type"] != args[1] {
			continue
		}
		if v, ok := rec[args[2]].(string); ok {
			ts.Setenv(args[0], v)
			return
		}
	}
	ts.Fatalf("event-env: no %s record with a %q field in stdout", args[1], args[2])
}

// sameCommand compares argv lists, the program by base name (fluzo-tool
// runs executables by their resolved absolute path).
func sameCommand(got, want []string) bool {
	if len(got) != len(want) || len(got) == 0 || filepath.Base(got[0]) != filepath.Base(want[0]) {
		return false
	}
	for i := 1; i < len(got); i++ {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func init() { register("wait-event", waitEvent) }

// wait-event TYPE waits (up to a minute) until the store of the current
// workspace holds an event of TYPE, reading it read-only.
func waitEvent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: wait-event TYPE")
	}
	ctx := context.Background()
	ws, err := store.ResolveWorkspace(ctx, ts.MkAbs("."))
	ts.Check(err)
	for i := 0; i < 600; i++ {
		if s, err := store.OpenReadOnly(ctx, ws); err == nil {
			page, err := s.Events(ctx, store.EventQuery{Type: args[0], Limit: 1})
			s.Close()
			if err == nil && len(page.Events) > 0 {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	ts.Fatalf("no %s event was recorded within a minute", args[0])
}
