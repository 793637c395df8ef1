package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// A focus-out stops every timer (no frame, no elapsed tick) while a task
// waits; a focus-in starts the motion again and re-arms the approval keys,
// so a key typed as the person switches back does not answer the card.
func TestTerminalFocusStopsMotionAndRearmsApprovals(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	h.keys(key(tcell.KeyTab)) // the card is focused in the conversation
	for i := 0; i < 60; i++ {
		h.tickOnce(newFrames(60).interval)
	}
	if h.clock.pending() != 1 {
		t.Fatalf("waiting (amber pulse) arms one timer, got %d", h.clock.pending())
	}
	h.keys(tcell.NewEventFocus(false))
	if n := h.clock.pending(); n != 0 {
		t.Fatalf("%d timers pending in an unfocused terminal, want none", n)
	}
	armed := h.clock.armed
	for i := 0; i < 5; i++ {
		h.tickOnce(time.Second)
	}
	if h.clock.armed != armed {
		t.Fatal("a timer was armed while the terminal was unfocused")
	}
	h.keys(tcell.NewEventFocus(true), runeKey('a'))
	if h.port.last("approve") != nil {
		t.Fatal("a key in the same instant as the focus-in answered the approval")
	}
	if h.clock.pending() != 1 {
		t.Fatalf("focus-in: the motion's timer is not armed again (%d pending)", h.clock.pending())
	}
	h.clock.Advance(armingWindow)
	h.keys(runeKey('a'))
	if got := h.port.last("approve"); got == nil || got["operation"] != "op_7" {
		t.Fatalf("after the arming window a approves: %v", got)
	}
}

// Focus is unknown until a focus-out is seen: a terminal that never
// reports focus keeps its motion.
func TestUnknownFocusCountsAsFocused(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	if h.app.blurred || h.clock.pending() != 1 {
		t.Fatalf("blurred=%v pending=%d before any focus event", h.app.blurred, h.clock.pending())
	}
}
