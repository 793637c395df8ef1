package testscripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// PTY black-box commands: the real fluzo-tui runs in a private tmux
// server (its own socket under $WORK) whose pane is a real terminal; the
// script types into it and reads the screen back. The pane's output bytes
// are also logged to $WORK/tui.bytes for terminal-mode checks.
func init() {
	register("tui-start", tuiStart)
	register("tui-keys", tuiKeys)
	register("tui-paste", tuiPaste)
	register("tui-wait", tuiWait)
	register("tui-absent", tuiAbsent)
	register("tui-signal", tuiSignal)
	register("tui-exited", tuiExited)
	register("tui-resize", tuiResize)
}

func tmuxCmd(ts *testscript.TestScript, args ...string) (string, error) {
	sock := filepath.Join(ts.Getenv("WORK"), "tmux.sock")
	cmd := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
	var env []string
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "GIT_CONFIG_NOSYSTEM",
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "CARGO_HOME", "RUSTUP_HOME"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	cmd.Env = append(env, "TERM=xterm-256color", "LANG=C.UTF-8")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustTmux(ts *testscript.TestScript, args ...string) string {
	out, err := tmuxCmd(ts, args...)
	if err != nil {
		ts.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return out
}

// tui-start W H command... runs command in a detached W x H pane.
func tuiStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: tui-start W H command [args...]")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		ts.Fatalf("tui-start needs tmux (apt-get install tmux)")
	}
	// The pane waits for a go file until pipe-pane is attached: otherwise,
	// under load, the program's first bytes (the mode switches the exit
	// checks look for) can be written before the capture starts.
	gate := filepath.Join(ts.Getenv("WORK"), "tui.go")
	shell := "while [ ! -e " + shQuote(gate) + " ]; do sleep 0.01; done; cd " + shQuote(ts.MkAbs(".")) + " && exec " + joinQuoted(args[2:])
	mustTmux(ts, "new-session", "-d", "-x", args[0], "-y", args[1], "-s", "tui", shell)
	ts.Defer(func() { tmuxCmd(ts, "kill-server") })
	mustTmux(ts, "set-option", "-t", "tui", "remain-on-exit", "on")
	mustTmux(ts, "pipe-pane", "-t", "tui", "-o", "cat >> "+shQuote(filepath.Join(ts.Getenv("WORK"), "tui.bytes")))
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		ts.Fatalf("tui-start: %v", err)
	}
}

// tui-keys KEY... sends tmux key names (Enter, Space, C-c, Tab) or text.
func tuiKeys(ts *testscript.TestScript, neg bool, args []string) {
	mustTmux(ts, append([]string{"send-keys", "-t", "tui"}, args...)...)
}

// tui-paste FILE pastes FILE's contents as a bracketed paste.
func tuiPaste(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: tui-paste FILE")
	}
	mustTmux(ts, "load-buffer", "-b", "p", ts.MkAbs(args[0]))
	mustTmux(ts, "paste-buffer", "-p", "-d", "-b", "p", "-t", "tui")
}

func screen(ts *testscript.TestScript) string { return mustTmux(ts, "capture-pane", "-p", "-t", "tui") }

// tui-wait REGEXP waits up to 60s until the screen matches.
func tuiWait(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tui-wait REGEXP")
	}
	re := regexp.MustCompile(args[0])
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := screen(ts)
		if re.MatchString(s) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("the screen never matched %q:\n%s", args[0], s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tui-absent REGEXP asserts the screen does not match, after a second
// for anything in flight to land.
func tuiAbsent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tui-absent REGEXP")
	}
	time.Sleep(time.Second)
	if s := screen(ts); regexp.MustCompile(args[0]).MatchString(s) {
		ts.Fatalf("the screen matches %q:\n%s", args[0], s)
	}
}

// tui-signal SIG sends a signal to the pane's process.
func tuiSignal(ts *testscript.TestScript, neg bool, args []string) {
	pid := strings.TrimSpace(mustTmux(ts, "display-message", "-p", "-t", "tui", "#{pane_pid}"))
	if out, err := exec.Command("kill", "-"+args[0], pid).CombinedOutput(); err != nil {
		ts.Fatalf("kill %s %s: %v %s", args[0], pid, err, out)
	}
}

// tui-exited waits until the pane's process ended and checks the
// terminal was left as found: alternate screen off, and the byte stream
// restores every mode the TUI turned on (alternate screen, bracketed
// paste, focus reporting, mouse capture when it was on).
func tuiExited(ts *testscript.TestScript, neg bool, args []string) {
	deadline := time.Now().Add(30 * time.Second)
	for strings.TrimSpace(mustTmux(ts, "display-message", "-p", "-t", "tui", "#{pane_dead}")) != "1" {
		if time.Now().After(deadline) {
			ts.Fatalf("fluzo-tui did not exit:\n%s", screen(ts))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if alt := strings.TrimSpace(mustTmux(ts, "display-message", "-p", "-t", "tui", "#{alternate_on}")); alt != "0" {
		ts.Fatalf("the alternate screen is still on after exit")
	}
	time.Sleep(200 * time.Millisecond) // pipe-pane flushes
	b, _ := os.ReadFile(filepath.Join(ts.Getenv("WORK"), "tui.bytes"))
	for _, mode := range []string{"\x1b[?1049h", "\x1b[?2004h", "\x1b[?1004h", "\x1b[?1000h", "\x1b[?1006h"} {
		on := strings.LastIndex(string(b), mode)
		if on < 0 && (mode == "\x1b[?1000h" || mode == "\x1b[?1006h") {
			continue // mouse capture is only on when asked for
		}
		off := strings.LastIndex(string(b), strings.Replace(mode, "h", "l", 1))
		if on < 0 || off < on {
			ts.Fatalf("mode %q was not restored after exit (on at %d, off at %d)", mode[2:], on, off)
		}
	}
	ts.Logf("exit status %s", strings.TrimSpace(mustTmux(ts, "display-message", "-p", "-t", "tui", "#{pane_dead_status}")))
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func joinQuoted(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shQuote(a)
	}
	return strings.Join(q, " ")
}

// tui-resize W H resizes the pane's window (a real SIGWINCH for the TUI).
func tuiResize(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tui-resize W H")
	}
	mustTmux(ts, "resize-window", "-t", "tui", "-x", args[0], "-y", args[1])
}
