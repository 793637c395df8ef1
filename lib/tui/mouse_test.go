package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func press(x, y int) *tcell.EventMouse {
	return tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone)
}

func release(x, y int) *tcell.EventMouse {
	return tcell.NewEventMouse(x, y, tcell.ButtonNone, tcell.ModNone)
}

func (h *harness) rowOf(s string) int {
	h.t.Helper()
	for y, row := range h.screenText() {
		if strings.Contains(row, s) {
			return y
		}
	}
	h.t.Fatalf("no row shows %q:\n%s", s, strings.Join(h.screenText(), "\n"))
	return -1
}

// A click selects the item under it and focuses the conversation; a
// second click on the selected tool card expands it in place; holding the
// button is one click; a click in the composer focuses it again; the
// wheel scrolls without moving focus (TUI-REFERENCE §3.6).
func TestClickSelectsAnItemAndTogglesATool(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60, Mouse: true})
	running(h)
	out := strings.Repeat("row\n", 25)
	h.records(ev(4, "operation.requested", "op_1", `{"tool":"exec"}`),
		ev(5, "command.result", "", `{"command":"cargo test","exit_code":101,"output_tail":"`+strings.ReplaceAll(out, "\n", `\n`)+`"}`),
		ev(6, "operation.result", "op_1", `{"to":"failed"}`))
	x := h.app.layout().conv.x + 4
	card := h.rowOf("exit 101")
	h.keys(press(x, card), tcell.NewEventMouse(x, card, tcell.Button1, tcell.ModNone)) // held: one click
	if h.app.focus != focusChat || h.app.selectedItem() == nil || h.app.selectedItem().kind != itemTool {
		t.Fatalf("a click on the card: focus %v, selected %d; want the conversation focused on the tool card", h.app.focus, h.app.selected)
	}
	if !h.contains("more lines") {
		t.Fatal("the first click (and the held button) expanded the card; only a second click may")
	}
	user := h.rowOf("fix the test")
	h.keys(release(x, card), press(x, user), release(x, user))
	if it := h.app.selectedItem(); it == nil || it.kind != itemUser {
		t.Fatalf("a click on the request selected item %d", h.app.selected)
	}
	if !strings.Contains(h.screenText()[user], "▌ ") {
		t.Fatal("the clicked item shows no selection gutter")
	}
	h.keys(press(x, card), release(x, card))
	if !h.contains("more lines") {
		t.Fatal("a click that selects the card must not expand it")
	}
	h.keys(press(x, card), release(x, card))
	if h.contains("more lines") {
		t.Fatal("a second click on the selected card must expand it")
	}
	c := h.app.layout().composer
	h.keys(press(c.x+6, c.y+1), release(c.x+6, c.y+1))
	if h.app.focus != focusComposer {
		t.Fatal("a click in the composer must focus it")
	}
	h.keys(tcell.NewEventMouse(x, user, tcell.WheelUp, tcell.ModNone))
	if h.app.focus != focusComposer {
		t.Fatal("the wheel moved focus")
	}
}

// A click on an approval card selects it but never answers it, and keys
// right after the click are inside the arming window.
func TestClickNeverAnswersAnApproval(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60, Mouse: true})
	running(h)
	h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	h.clock.Advance(armingWindow * 2)
	x, y := h.app.layout().conv.x+4, h.rowOf("APPROVAL REQUIRED")
	for i := 0; i < 3; i++ {
		h.keys(press(x, y), release(x, y))
	}
	h.keys(runeKey('a'))
	if h.port.last("approve") != nil || h.port.last("deny") != nil {
		t.Fatal("clicks (and a key right after them) answered the approval")
	}
	if it := h.app.selectedItem(); it == nil || it.kind != itemApproval {
		t.Fatalf("the click did not select the card (selected %d)", h.app.selected)
	}
}
