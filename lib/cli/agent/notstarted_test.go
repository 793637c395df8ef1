package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
)

// Every way run and resume can end before a task starts still ends a
// --json stdout with a result record whose status and exit code agree
// with the message on stderr.
func TestRunAndResumeEndWithAResultRecordOnEveryUsageError(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	bad := filepath.Join(base, "bad")
	good := filepath.Join(base, "good")
	plain := filepath.Join(base, "plain")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{ws, bad, good} {
		if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(bad, ".fluzo"), []byte("schema_version = 1\n[harness\nmax_turns = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(good, ".fluzo"), []byte("schema_version = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		code    core.Code
		message string
	}{
		{"unknown flag", []string{"run", "--json", "--bogus", "--task", "x"}, core.CodeUsage, "unknown flag --bogus"},
		{"unknown flag before --json", []string{"run", "--bogus", "--json", "--task", "x"}, core.CodeUsage, "unknown flag --bogus"},
		{"missing --task", []string{"run", "--json"}, core.CodeUsage, `"task"`},
		{"empty --task", []string{"run", "--json", "--task", " "}, core.CodeUsage, "--task is empty"},
		{"bad flag value", []string{"run", "--json", "--task", "x", "--max-turns", "abc"}, core.CodeUsage, "--max-turns"},
		{"negative budget", []string{"run", "--json", "--task", "x", "--max-turns", "-1"}, core.CodeUsage, "--max-turns must be"},
		{"contradicting flags", []string{"run", "--json", "--task", "x", "--verify", "true", "--no-verify"}, core.CodeUsage, "contradict"},
		{"stray argument", []string{"run", "--json", "--task", "x", "tests"}, core.CodeUsage, `unexpected argument "tests"`},
		{"missing workspace", []string{"run", "--json", "--task", "x", "--workspace", filepath.Join(base, "missing")}, "", "is not a directory"},
		{"not a repository", []string{"run", "--json", "--task", "x", "--workspace", plain}, "", "not inside a git working tree"},
		{"no configuration", []string{"run", "--json", "--task", "x", "--no-verify", "--workspace", ws}, "", "no configuration file"},
		{"bad configuration", []string{"run", "--json", "--task", "x", "--no-verify", "--workspace", bad}, "", ".fluzo"},
		{"unreadable --config", []string{"run", "--json", "--task", "x", "--no-verify", "--workspace", ws, "--config", filepath.Join(base, "nope.toml")}, "", "nope.toml"},
		{"bad --set", []string{"run", "--json", "--task", "x", "--no-verify", "--workspace", good, "--set", "no_such_key=1"}, "", "no_such_key"},
		{"resume without a task", []string{"resume", "--json"}, core.CodeUsage, "exactly one TASK"},
		{"resume unknown flag", []string{"resume", "--json", "--bogus", "tsk_x"}, core.CodeUsage, "unknown flag --bogus"},
		{"resume contradicting flags", []string{"resume", "--json", "--verify", "true", "--no-verify", "tsk_x"}, core.CodeUsage, "contradict"},
		{"resume missing workspace", []string{"resume", "--json", "--workspace", filepath.Join(base, "missing"), "tsk_x"}, "", "is not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runner.Run(context.Background(), Command(), append([]string{"fluzo-agent"}, c.args...), &stdout, &stderr)
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			var rec struct {
				Type, Status, Reason string
				Verification         struct{ Verification string }
				Error                *core.Error
			}
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil || rec.Type != "result" {
				t.Fatalf("stdout does not end with a result record (exit %d, stderr %q):\n%s", code, stderr.String(), stdout.String())
			}
			if rec.Error == nil || rec.Reason != ReasonNotStarted || rec.Verification.Verification != "not_run" || string(rec.Error.Code) != rec.Status {
				t.Fatalf("record: %s", lines[len(lines)-1])
			}
			if c.code != "" && rec.Status != string(c.code) {
				t.Fatalf("status %q, want %q", rec.Status, c.code)
			}
			if code == core.ExitOK || code != core.ExitFor(core.Code(rec.Status)) {
				t.Fatalf("exit %d does not match the record's status %q", code, rec.Status)
			}
			if !strings.Contains(stderr.String(), "fluzo-agent: ") || !strings.Contains(stderr.String(), c.message) || !strings.Contains(rec.Error.Message, c.message) {
				t.Fatalf("stderr %q / record message %q should both say %q", stderr.String(), rec.Error.Message, c.message)
			}
		})
	}
}

// Without --json the usage error is for people: stderr only.
func TestUsageErrorWithoutJSONPrintsNoRecord(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runner.Run(context.Background(), Command(), []string{"fluzo-agent", "run", "--task", "x", "--bogus"}, &stdout, &stderr)
	if code != core.ExitFor(core.CodeUsage) || stdout.Len() != 0 || !strings.Contains(stderr.String(), "unknown flag --bogus") {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
}
