package ptytest

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// storeCounts are the store's record counts (fluzo-store stats, which
// reads the store read-only beside the owner).
func storeCounts(t *testing.T, ws string, env []string) map[string]int64 {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "fluzo-store"), "-C", ws, "stats", "--json")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fluzo-store stats: %v", err)
	}
	var st struct {
		Counts map[string]int64 `json:"counts"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("fluzo-store stats printed %q: %v", out, err)
	}
	return st.Counts
}

// storeEvents counts the stored events of one type.
func storeEvents(t *testing.T, ws string, env []string, typ string) int {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "fluzo-store"), "-C", ws, "events", "--type", typ)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fluzo-store events: %v", err)
	}
	return strings.Count(string(out), "\n")
}

// shows waits until want is on the screen. tcell writes only the cells
// that changed, so a word can reach the terminal in pieces; a resize makes
// it repaint every cell, so each try resizes (alternating the width by
// one column) and looks at what was drawn after it.
func (tm *term) shows(want string, cols, rows int, timeout time.Duration) {
	tm.t.Helper()
	if !tm.showsWithin(want, cols, rows, timeout) {
		tm.waitFor(want, tm.size(), time.Millisecond) // fails with the tail
	}
}

// showsWithin is shows that reports instead of failing.
func (tm *term) showsWithin(want string, cols, rows int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for i := 0; ; i++ {
		from := tm.size()
		if err := setSize(tm.master, cols+i%2, rows); err != nil {
			tm.t.Fatal(err)
		}
		if _, _, ok := tm.tryWait(want, from, 700*time.Millisecond); ok {
			setSize(tm.master, cols, rows)
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// A failed task's session is opened and browsed: the simulator receives
// no request and the store gains no attempt (nor any event). Resuming is
// the separate r, which shows the revalidation first and starts the new
// attempt only when confirmed. Closing the views returns to the composer
// with the draft as it was.
func TestOpeningASessionIsReadOnlyAndResumeIsExplicit(t *testing.T) {
	s := startSim(t, `{"version":1,"name":"sessions","models":["sim"],"steps":[
 {"id":"resumed","match":{"last_user":"being resumed"},"respond":{"text":"resumed and done"}}
]}`)
	ws, env := workspace(t, s, "")
	const cols, rows = 120, 40
	tm := startTUI(t, ws, env, cols, rows, "--reduced-motion")
	tm.write("break the build\r") // no scenario step matches: the task fails
	tm.shows("provider_error", cols, rows, 30*time.Second)
	requests, before := s.requests.Load(), storeCounts(t, ws, env)
	if before["attempts"] != 1 {
		t.Fatalf("after the failed task: %d attempts", before["attempts"])
	}

	tm.write("half typed")
	tm.write("\x13")                                 // Ctrl+S: the sessions view
	tm.shows("1 failed", cols, rows, 10*time.Second) // the listed session's task states
	tm.write("\r")                                   // open the newest session: its timeline
	tm.shows("create task", cols, rows, 10*time.Second)
	tm.write("\x1b[B\x1b[B\x1b[6~\x1b[5~") // scroll it
	tm.shows("r resume", cols, rows, 10*time.Second)
	tm.write("\x1b") // back to the list
	// The list, then Ctrl+S closes it: an ESC read together with the one
	// before is a single Alt+Esc to tcell, and the composer's draft shows
	// beside the view whether or not it closed.
	tm.shows("opening one is read-only", cols, rows, 10*time.Second)
	tm.write("\x13")
	tm.shows("half typed", cols, rows, 10*time.Second)
	tm.shows("→ new task", cols, rows, 10*time.Second)
	after := storeCounts(t, ws, env)
	if got := s.requests.Load(); got != requests {
		t.Fatalf("opening a session sent %d model request(s)", got-requests)
	}
	if after["attempts"] != before["attempts"] || after["events"] != before["events"] || after["permission_grants"] != before["permission_grants"] {
		t.Fatalf("opening a session wrote to the store: %v then %v", before, after)
	}

	tm.write("\x15") // Ctrl+U clears the draft
	tm.write("\x13")
	tm.shows("1 failed", cols, rows, 10*time.Second) // the listed session's task states
	tm.write("\r")
	tm.shows("create task", cols, rows, 10*time.Second)
	tm.write("r")
	tm.shows("workspace: unchanged", cols, rows, 10*time.Second)
	if s.requests.Load() != requests || storeCounts(t, ws, env)["attempts"] != before["attempts"] {
		t.Fatal("the resume confirmation started something before it was confirmed")
	}
	time.Sleep(500 * time.Millisecond) // past the arming window
	tm.write("r")
	tm.shows("resumed and done", cols, rows, 30*time.Second)
	if got := storeCounts(t, ws, env)["attempts"]; got != before["attempts"]+1 {
		t.Fatalf("resume: %d attempts, want %d", got, before["attempts"]+1)
	}
	tm.write("\x03")
	tm.waitExit(10 * time.Second)
}

// The intervention queue in a task's detail: a queued message is
// withdrawn (never delivered), another edited in the composer (the model
// gets the edited text), and once delivered it can no longer change.
func TestInterventionEditAndWithdrawInTheTaskDetail(t *testing.T) {
	s := startSim(t, `{"version":1,"name":"interventions","models":["sim"],"steps":[
 {"id":"ask","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"exec","arguments":{"argv":["touch","marker"]}}]}},
 {"id":"edited","match":{"last_user":"^edited: stop now$"},"respond":{"text":"stopping as asked"}}
]}`)
	ws, env := workspace(t, s, "")
	const cols, rows = 120, 40
	tm := startTUI(t, ws, env, cols, rows, "--reduced-motion")
	tm.write("make a marker\r")
	tm.shows("Waiting for your approval", cols, rows, 30*time.Second)
	tm.write("never mind\r")
	tm.shows("as an intervention", cols, rows, 10*time.Second)
	tm.write("\x14")                                       // Ctrl+T, then the running task's detail
	tm.shows("running      ≥", cols, rows, 10*time.Second) // the listed task
	tm.write("\r")
	tm.shows("1. queued", cols, rows, 10*time.Second)
	tm.write("x")
	tm.shows("1. withdrawn", cols, rows, 10*time.Second)
	tm.write("\x1b")
	time.Sleep(100 * time.Millisecond)
	tm.write("\x1b")
	time.Sleep(100 * time.Millisecond)
	tm.write("please wait\r")
	tm.write("\x14")
	tm.shows("running      ≥", cols, rows, 10*time.Second)
	tm.write("\r")
	tm.shows("2. queued", cols, rows, 10*time.Second)
	tm.write("\x1b[Be") // select it, edit it in the composer
	tm.shows("→ edits queued message msg_", cols, rows, 10*time.Second)
	tm.write("\x15edited: stop now\r")
	time.Sleep(300 * time.Millisecond)
	tm.write("\t") // the approval card
	time.Sleep(500 * time.Millisecond)
	tm.write("a")
	tm.shows("stopping as asked", cols, rows, 30*time.Second)
	if n := storeEvents(t, ws, env, "intervention"); n != 1 {
		t.Fatalf("%d intervention(s) delivered, want only the edited one", n)
	}
	if storeEvents(t, ws, env, "intervention.withdrawn") != 1 || storeEvents(t, ws, env, "intervention.edited") != 1 {
		t.Fatal("the withdrawal and the edit are not both durable events")
	}
	tm.write("\t\x14")
	tm.shows("completed    ", cols, rows, 10*time.Second)
	tm.write("\r")
	tm.shows("2. delivered", cols, rows, 10*time.Second)
	tm.write("\x1b[Bx")
	tm.shows("cannot withdraw the message: it is delivered", cols, rows, 10*time.Second)
	tm.write("\x1b")
	time.Sleep(100 * time.Millisecond)
	tm.write("\x1b")
	time.Sleep(100 * time.Millisecond)
	tm.write("\x03")
	tm.waitExit(10 * time.Second)
}
