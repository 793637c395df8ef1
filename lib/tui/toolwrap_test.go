package tui

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// A cargo summary row longer than the card (93 cells in an 81-cell body at
// 120x40) wraps after a space, not inside "finished", and the card body
// still uses the whole text width up to the scrollbar.
func TestToolOutputWrapsAtWords(t *testing.T) {
	const summary = "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"
	h := newHarness(t, 120, 40, Options{Caps: theme.Caps{Depth: theme.TrueColor}})
	running(h)
	h.records(ev(4, "operation.requested", "op_1", `{"tool":"exec"}`),
		ev(5, "command.result", "", `{"command":"cargo test","exit_code":0,"output_tail":"running 0 tests\n`+summary+`"}`),
		ev(6, "operation.result", "op_1", `{"to":"succeeded"}`))
	h.app.dirty.all = true
	h.app.render()
	l := h.app.layout()
	var first, second string
	for i, row := range h.screenText() {
		if strings.Contains(row, "test result: ok.") {
			first, second = row, h.screenText()[i+1]
		}
	}
	if first == "" {
		t.Fatalf("no summary row on screen:\n%s", strings.Join(h.screenText(), "\n"))
	}
	if strings.Contains(first, "finis") || !strings.Contains(second, "finished in 0.00s") {
		t.Fatalf("summary split inside a word:\n%q\n%q", first, second)
	}
	// The body starts at the card's indent (gutter 2 + indent 2 from the
	// conversation's x) and may reach the column before the scrollbar.
	start := strings.Index(first, "test result")
	if start != l.conv.x+4 {
		t.Errorf("body starts at column %d, want %d", start, l.conv.x+4)
	}
	if room := l.scrollbar - start; len("test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; ") > room {
		t.Fatalf("test assumes the words before \"finished\" fit in %d cells", room)
	}
}
