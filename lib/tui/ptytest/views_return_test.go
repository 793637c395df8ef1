package ptytest

import (
	"testing"
	"time"
)

// Every view opened over the conversation gives it back as it was: after
// Esc the keys go to the composer after its draft, and a conversation the
// reader had scrolled up stays paused where it was (issue 15 item 7; the
// diff view's own test pages it first). The real binary, a real port and a
// completed task, so every view has something to show.
func TestEveryViewReturnsFocusDraftAndScroll(t *testing.T) {
	s := startSim(t, bigFileScenario())
	ws, env := workspace(t, s, "")
	const cols, rows = 120, 40
	tm := startTUI(t, ws, env, cols, rows, "--reduced-motion")
	_, from := tm.waitFor("connected", 0, 30*time.Second)
	tm.write("write the big file\r")
	_, from = tm.waitFor("WROTE-THE-FILE", from, 60*time.Second)
	_, from = tm.waitFor("completed", from, 60*time.Second)

	draft := "keepdraft"
	tm.write(draft)
	_, from = tm.waitFor(draft, from, 10*time.Second)
	tm.write("\x1b[5~") // PgUp in the composer scrolls the conversation: paused
	_, from = tm.waitFor("paused", from, 10*time.Second)
	views := []struct{ name, keys, marker string }{
		{"palette", "\x10", "Commands"},
		{"help", "\x07", "Keys"},
		{"tasks", "\x14", "Tasks"},
		{"diagnostics", "\x04", "Diagnostics"},
		{"sessions", "\x13", "Sessions"},
		{"diff", "\x06", "verification"},
		{"settings", "\x1bOQ", "Settings"},
		{"theme", "\x1bOR", "Theme"},
	}
	for i, v := range views {
		tm.write(v.keys)
		if !tm.showsWithin(v.marker, cols, rows, 15*time.Second) {
			t.Fatalf("%s: %q never appeared after its key", v.name, v.marker)
		}
		time.Sleep(200 * time.Millisecond) // a lone ESC is told from a sequence by a pause
		tm.write("\x1b")
		time.Sleep(200 * time.Millisecond)
		typed := string(rune('A' + i))
		draft += typed
		tm.write(typed)
		if !tm.showsWithin(draft, cols, rows, 10*time.Second) {
			t.Fatalf("after closing %s the composer does not show %q: the keys went elsewhere or the draft changed", v.name, draft)
		}
		if !tm.showsWithin("paused", cols, rows, 10*time.Second) {
			t.Fatalf("closing %s made the conversation jump back to following", v.name)
		}
	}
	tm.write("\x15\x03") // clear the draft, quit
	tm.waitExit(10 * time.Second)
}
