package ptytest

import (
	"bytes"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

const idleScenario = `{"version":1,"name":"idle","models":["sim"],"steps":[]}`

// checkRestored asserts, from the byte stream alone, that the terminal
// was left as a shell expects it: every DEC private mode the TUI turned on
// was turned off again after its last use (alternate screen 1049,
// bracketed paste 2004, focus 1004, mouse 1000-1006, synchronized output
// 2026, application cursor keys 1), the cursor is visible (25) and
// autowrap (7) is back on; the keyboard protocol pushes are popped; and
// nothing is drawn after the alternate screen is left.
func checkRestored(t *testing.T, stream []byte) {
	t.Helper()
	last := map[string]string{}
	for _, m := range decMode.FindAllSubmatch(stream, -1) {
		for _, n := range strings.Split(string(m[1]), ";") {
			last[n] = string(m[2])
		}
	}
	if last["1049"] != "l" {
		t.Errorf("the alternate screen (?1049) was entered and never left: last %q", last["1049"])
	}
	for mode, state := range last {
		want := "l"
		if mode == "25" || mode == "7" {
			want = "h" // cursor shown, autowrap on: the shell's defaults
		}
		if state != want {
			t.Errorf("mode ?%s ends %q, want %q", mode, state, want)
		}
	}
	for _, must := range []string{"?2004", "?1004", "?25"} {
		if _, seen := last[strings.TrimPrefix(must, "?")]; !seen {
			t.Errorf("mode %s never appears in the stream; the TUI was expected to set and reset it", must)
		}
	}
	if bytes.Contains(stream, []byte("\x1b[>1u")) && bytes.LastIndex(stream, []byte("\x1b[<u")) < bytes.LastIndex(stream, []byte("\x1b[>1u")) {
		t.Errorf("the kitty keyboard flags pushed with ESC[>1u were never popped (ESC[<u)")
	}
	if bytes.Contains(stream, []byte("\x1b[>4;2m")) && bytes.LastIndex(stream, []byte("\x1b[>4;0m")) < bytes.LastIndex(stream, []byte("\x1b[>4;2m")) {
		t.Errorf("modifyOtherKeys (ESC[>4;2m) was never reset (ESC[>4;0m)")
	}
	left := bytes.LastIndex(stream, []byte("\x1b[?1049l"))
	if left < 0 {
		return
	}
	tail := stream[left+len("\x1b[?1049l"):]
	if text := escapes.ReplaceAll(tail, nil); len(bytes.TrimSpace(text)) > 0 {
		t.Errorf("the TUI drew %q after leaving the alternate screen", text)
	}
}

var escapes = regexp.MustCompile(`\x1b(\[[0-9;?<>= ]*[a-zA-Z~]|[()][0-9A-Z]|[=>78])`)

func TestQuitRestoresTheTerminal(t *testing.T) {
	s := startSim(t, idleScenario)
	ws, env := workspace(t, s, "")
	tm := startTUI(t, ws, env, 100, 30)
	tm.waitFor("connected", 0, 30*time.Second)
	tm.write("\x03") // Ctrl+C with an empty draft quits
	tm.waitExit(10 * time.Second)
	checkRestored(t, tm.bytes())
}

// Every signal that ends the TUI restores the terminal and takes the
// agent it started down with it.
func TestSignalsRestoreTheTerminal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			s := startSim(t, idleScenario)
			ws, env := workspace(t, s, "")
			tm := startTUI(t, ws, env, 100, 30)
			tm.waitFor("connected", 0, 30*time.Second)
			kids := childrenOf(tm.cmd.Process.Pid)
			if len(kids) == 0 {
				t.Fatalf("fluzo-tui has no child process; it should run fluzo-agent serve")
			}
			if err := tm.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			tm.waitExit(10 * time.Second)
			checkRestored(t, tm.bytes())
			deadline := time.Now().Add(5 * time.Second)
			for _, k := range kids {
				for alive(k) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if alive(k) {
					t.Errorf("child %d of fluzo-tui is still running 5 s after %v", k, sig)
				}
			}
		})
	}
}
