package ptytest

import (
	"bytes"
	"regexp"
	"testing"
	"time"
)

const doneScenario = `{"version":1,"name":"done","models":["sim"],"steps":[
 {"id":"answer","match":{"last_user":"say done"},"respond":{"text":"All done: DONE-MARKER"}}]}`

var osc777 = regexp.MustCompile(`\x1b\]777;notify;Fluzo: task completed;task tsk_[A-Za-z0-9]{1,8}\x1b\\`)

// A desktop notification reaches the terminal as OSC 777 (Ghostty), or
// as the bell where no sequence is known (xterm-256color), only when
// notifications are enabled and a focus-out was reported; a focus-in
// before the outcome, or a terminal that never reports focus, gets none —
// unknown focus counts as focused.
func TestDesktopNotificationOnlyWhenUnfocused(t *testing.T) {
	for _, c := range []struct {
		name  string
		focus string // what the terminal reports before the task
		want  bool
		bell  bool // a terminal without a known notification sequence
	}{
		{"out", "\x1b[O", true, false},
		{"out-in", "\x1b[O\x1b[I", false, false},
		{"never", "", false, false},
		{"bell", "\x1b[O", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startSim(t, doneScenario)
			ws, env := workspace(t, s, "[tui.notifications]\ndesktop_enabled = true\n")
			if !c.bell {
				env = append(env, "TERM_PROGRAM=ghostty")
			}
			tm := startTUI(t, ws, env, 120, 40, "--reduced-motion")
			_, from := tm.waitFor("connected", 0, 30*time.Second)
			if c.focus != "" {
				tm.write(c.focus)
			}
			tm.write("say done\r")
			_, end := tm.waitFor("completed", from, 60*time.Second)
			tm.waitFor("DONE", end, 10*time.Second) // the toast's frame
			time.Sleep(300 * time.Millisecond)      // the write after that frame
			tm.write("\x03")
			tm.waitExit(10 * time.Second)
			stream := tm.bytes()
			if i := bytes.LastIndex(stream, []byte("\x1b[?1049l")); i > 0 {
				stream = stream[:i]
			}
			if c.bell {
				if n := bytes.Count(stream, []byte("\a")); n != 1 || bytes.Contains(stream, []byte("\x1b]777;")) {
					t.Fatalf("want exactly one BEL and no OSC 777, got %d BEL", n)
				}
				return
			}
			got := osc777.FindAll(stream, -1)
			if c.want && len(got) != 1 {
				t.Fatalf("want one OSC 777 notification, got %d; OSC sequences seen: %q", len(got), regexp.MustCompile(`\x1b\][^\x1b\x07]*`).FindAll(stream, -1))
			}
			if !c.want && (len(got) != 0 || bytes.Contains(stream, []byte("\x1b]777;"))) {
				t.Fatalf("a notification while focus is not known to be lost: %q", got)
			}
		})
	}
}
