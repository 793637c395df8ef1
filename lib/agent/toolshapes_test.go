package agent

import (
	"encoding/json"
	"testing"
	"time"
)

func TestVerificationCallNeverNeedsAShellForPlainCommands(t *testing.T) {
	name, args := verificationCall("cargo test --quiet")
	if name != "exec" || string(args) != `{"argv":["cargo","test","--quiet"]}` {
		t.Fatalf("plain command: %s %s", name, args)
	}
	name, args = verificationCall("go test ./... | tee log")
	if name != "shell" || execCommand(args) != "go test ./... | tee log" {
		t.Fatalf("shell command: %s %s", name, args)
	}
	if execCommand(json.RawMessage(`{"argv":["cargo","test"]}`)) != "cargo test" {
		t.Fatal("argv not joined")
	}
}

func TestExecResultReadsExitCodeAndOutput(t *testing.T) {
	code, out := execResult(toolOutcome{OK: true, Result: json.RawMessage(`{"exit_code":101,"stdout":"a","stderr":"b"}`)})
	if code != 101 || out != "ab" {
		t.Fatalf("got %d %q", code, out)
	}
	if code, _ := execResult(toolOutcome{OK: true, Result: json.RawMessage(`{"exit_code":null,"signal":"SIGKILL"}`)}); code != -1 {
		t.Fatal("a signalled command must not count as passing")
	}
	if code, _ := execResult(toolOutcome{OK: false}); code != -1 {
		t.Fatal("a failed call must not count as a passing run")
	}
}

func TestCommandTimeoutIsCappedByTheShellTimeout(t *testing.T) {
	c := func(args string) toolCall { return toolCall{Name: "exec", Args: json.RawMessage(args)} }
	cases := map[string]string{
		`{"argv":["make"]}`:                       `{"argv":["make"],"timeout_seconds":60}`,
		`{"argv":["make"],"timeout_seconds":600}`: `{"argv":["make"],"timeout_seconds":60}`,
		`{"argv":["make"],"timeout_seconds":5}`:   `{"argv":["make"],"timeout_seconds":5}`,
	}
	for in, want := range cases {
		if got := string(capTimeout(c(in), time.Minute)); got != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
	view := toolCall{Name: "view", Args: json.RawMessage(`{"path":"a"}`)}
	if string(capTimeout(view, time.Minute)) != `{"path":"a"}` {
		t.Error("a file tool's arguments were changed")
	}
}
