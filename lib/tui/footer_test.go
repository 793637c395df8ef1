package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The a/t/d hint names keys that only mean something while a card waits
// for an answer; after the task ends it would advertise dead keys.
func TestFooterApprovalHintOnlyWhilePending(t *testing.T) {
	for _, st := range states {
		if st.name != "waiting" && st.name != "completed" && st.name != "empty" {
			continue
		}
		t.Run(st.name, func(t *testing.T) {
			h := newHarness(t, 240, 40, Options{Caps: theme.Caps{Depth: theme.TrueColor}})
			st.script(h)
			h.keys(key(tcell.KeyTab))
			if h.app.focus != focusChat {
				h.app.focus = focusChat
			}
			h.app.dirty.all = true
			h.app.render()
			footer := h.screenText()[h.app.layout().footer]
			want := st.name == "waiting"
			if got := strings.Contains(footer, "answer approval"); got != want {
				t.Fatalf("footer %q: approval hint shown=%v, want %v", footer, got, want)
			}
		})
	}
}
