package ptytest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// overViews are the views opened over the conversation: the key that
// opens each and a text it shows once open.
var overViews = []struct{ name, keys, marker string }{
	{"palette", "\x10", "Commands"},
	{"help", "\x07", "Keys"},
	{"tasks", "\x14", "Tasks"},
	{"diagnostics", "\x04", "Diagnostics"},
	{"sessions", "\x13", "Sessions"},
	{"diff", "\x06", "verification"},
	{"settings", "\x1bOQ", "Settings"},
	{"theme", "\x1bOR", "Theme"},
}

// openAndClose opens view v, waits until it shows, and closes it with Esc.
func openAndClose(t *testing.T, tm *term, v struct{ name, keys, marker string }, cols, rows int) {
	t.Helper()
	tm.write(v.keys)
	if !tm.showsWithin(v.marker, cols, rows, 15*time.Second) {
		t.Fatalf("%s: %q never appeared after its key", v.name, v.marker)
	}
	time.Sleep(200 * time.Millisecond) // a lone ESC is told from a sequence by a pause
	tm.write("\x1b")
	time.Sleep(200 * time.Millisecond)
}

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
	tm.waitFor("paused", from, 10*time.Second)
	for i, v := range overViews {
		openAndClose(t, tm, v, cols, rows)
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

// rowsScenario answers with 120 numbered paragraphs, so where the
// conversation is scrolled shows in which of them are on screen.
func rowsScenario() string {
	var b strings.Builder
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&b, "ROW-%03d\n\n", i)
	}
	text, _ := json.Marshal(b.String())
	return fmt.Sprintf(`{"version":1,"name":"rows","models":["sim"],"steps":[
 {"id":"rows","match":{"last_user":"many rows"},"respond":{"text":%s}}]}`, text)
}

var rowMarker = regexp.MustCompile(`ROW-[0-9]{3}`)

// visibleRows repaints the whole screen (a resize makes tcell redraw every
// cell) and returns the numbered rows drawn, in order.
func visibleRows(t *testing.T, tm *term, cols, rows int) string {
	t.Helper()
	from := tm.size()
	if err := setSize(tm.master, cols+1, rows); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("paused", from, 10*time.Second)
	time.Sleep(400 * time.Millisecond) // the rest of the repaint
	if err := setSize(tm.master, cols, rows); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("paused", from, 10*time.Second)
	time.Sleep(400 * time.Millisecond)
	// Both repaints draw the same rows (one column apart, no row wraps).
	var shown []string
	seen := map[string]bool{}
	for _, m := range rowMarker.FindAllString(string(tm.bytes()[from:]), -1) {
		if !seen[m] {
			seen[m] = true
			shown = append(shown, m)
		}
	}
	return strings.Join(shown, " ")
}

// The conversation, scrolled up into the middle of a long answer, is
// exactly where it was after each view closes: the same numbered rows are
// on screen (not the newest, which following would show).
func TestEveryViewKeepsTheConversationScrolledWhereItWas(t *testing.T) {
	s := startSim(t, rowsScenario())
	ws, env := workspace(t, s, "")
	const cols, rows = 120, 40
	tm := startTUI(t, ws, env, cols, rows, "--reduced-motion")
	_, from := tm.waitFor("connected", 0, 30*time.Second)
	tm.write("many rows\r")
	_, from = tm.waitFor("ROW-120", from, 60*time.Second)
	tm.waitFor("completed", from, 60*time.Second)
	tm.write("\x1b[5~\x1b[5~") // two pages up: paused in the middle
	tm.shows("paused", cols, rows, 10*time.Second)
	before := visibleRows(t, tm, cols, rows)
	t.Logf("rows on screen while scrolled up: %s", before)
	if before == "" || strings.Contains(before, "ROW-120") {
		t.Fatalf("the conversation is not scrolled into the answer: rows on screen %q", before)
	}
	for _, v := range overViews {
		openAndClose(t, tm, v, cols, rows)
		if after := visibleRows(t, tm, cols, rows); after != before {
			t.Fatalf("after closing %s the conversation shows %q, before it showed %q", v.name, after, before)
		}
	}
	tm.write("\x03")
	tm.waitExit(10 * time.Second)
}
