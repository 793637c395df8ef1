package testscripts

import (
	"encoding/json"
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
// script's isolated HOME by linking $HOME/.rustup and $HOME/.cargo to the
// real ones (rustup's cargo proxy looks there). It fails the script when
// no toolchain is installed, so a missing cargo is never a silent pass.
func rustToolchain(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: rust-toolchain")
	}
	realHome, err := os.UserHomeDir()
	if err != nil {
		ts.Fatalf("rust-toolchain: no home directory: %v", err)
	}
	home := ts.Getenv("HOME")
	for name, env := range map[string]string{".rustup": "RUSTUP_HOME", ".cargo": "CARGO_HOME"} {
		src := os.Getenv(env)
		if src == "" {
			src = filepath.Join(realHome, name)
		}
		if _, err := os.Stat(src); err != nil {
			ts.Fatalf("rust-toolchain: %s not found (%v); install Rust with rustup", src, err)
		}
		dst := filepath.Join(home, name)
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Symlink(src, dst); err != nil {
			ts.Fatalf("rust-toolchain: %v", err)
		}
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
// command line is exactly CMDLINE exists, reading /proc.
func waitProcess(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: wait-process CMDLINE")
	}
	want := strings.ReplaceAll(args[0], " ", "\x00") + "\x00"
	for i := 0; i < 6000; i++ {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && string(b) == want {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Fatalf("no process %q appeared within a minute", args[0])
}
