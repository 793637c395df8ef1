package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// tickOnce advances the injected clock by d and runs the wake the timer
// posted, as the screen goroutine would.
func (h *harness) tickOnce(d time.Duration) {
	h.clock.Advance(d)
	h.app.box.mu.Lock()
	pending := h.app.box.tick
	h.app.box.mu.Unlock()
	if pending {
		h.app.wake(h.app.box.wait())
	}
}

func TestFrameIntervalIsCeilOfFPS(t *testing.T) {
	for fps, want := range map[int]time.Duration{60: 16666667, 30: 33333334, 15: 66666667, 1: time.Second, 0: 0} {
		if got := newFrames(fps).interval; got != want {
			t.Errorf("%d fps: interval %v, want %v", fps, got, want)
		}
	}
}

func TestAnimationTicksRepaintOnlyIdentityCells(t *testing.T) {
	for _, fps := range []int{15, 30, 60} {
		h := newHarness(t, 120, 40, Options{FPS: fps})
		running(h)
		if h.clock.pending() != 1 {
			t.Fatalf("%d fps: a running task arms one timer, got %d", fps, h.clock.pending())
		}
		full, layouts := h.app.stats.fullFrames, h.app.stats.layouts
		before := h.screenText()
		iv := newFrames(fps).interval
		for i := 0; i < 10; i++ {
			h.tickOnce(iv)
		}
		if got := h.app.stats.identityFrames; got != 10 {
			t.Fatalf("%d fps: %d identity frames in 10 intervals", fps, got)
		}
		if h.app.stats.fullFrames != full || h.app.stats.layouts != layouts {
			t.Fatalf("%d fps: a tick re-rendered the conversation (full %d→%d, layouts %d→%d)", fps, full, h.app.stats.fullFrames, layouts, h.app.stats.layouts)
		}
		after := h.screenText()
		if nonIdentity(h, before) != nonIdentity(h, after) {
			t.Fatalf("%d fps: cells outside the identity regions changed", fps)
		}
		if before[0] == after[0] && fps != 15 {
			// at 15 fps, 10 frames is a full 0.8 s cycle plus a bit; the
			// others must have moved the bar
			t.Fatalf("%d fps: the activity bar did not move", fps)
		}
	}
}

func TestNoTimerWhileStatic(t *testing.T) {
	cases := map[string]Options{"fps0": {FPS: 0}, "reduced": {FPS: 60, ReducedMotion: true}}
	for name, opts := range cases {
		h := newHarness(t, 120, 40, opts)
		running(h)
		// Only the elapsed counter's 1 s timer (reference §3.3): no frames.
		if h.clock.armed != 1 || h.clock.pending() != 1 {
			t.Fatalf("%s: %d timers armed while running, want the elapsed one", name, h.clock.armed)
		}
		before := h.screenText()[0]
		for i := 0; i < 5; i++ {
			h.tickOnce(time.Second)
		}
		h.records(delta("x"))
		if h.screenText()[0] != before {
			t.Fatalf("%s: the activity bar moved", name)
		}
		if h.app.stats.identityFrames != 5 {
			t.Fatalf("%s: %d identity frames in 5 s, want one a second", name, h.app.stats.identityFrames)
		}
	}
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	if h.clock.armed != 0 {
		t.Fatalf("idle at 60 fps armed %d timers", h.clock.armed)
	}
	running(h)
	if h.clock.pending() != 1 {
		t.Fatal("running arms the timer")
	}
	h.records(`{"v":1,"type":"result","status":"completed","task":"tsk_1"}`)
	// The completion tint settles for a second, then nothing moves; the
	// one timer left is the completion toast's expiry, then none.
	for i := 0; i < 80 && h.app.moving; i++ {
		h.tickOnce(newFrames(60).interval)
	}
	toast, ok := h.app.notes.q.NextDeadline()
	if h.app.moving || h.clock.Now() > 2*time.Second || !ok || h.clock.pending() != 1 || h.app.timerAt != toast {
		t.Fatalf("the frames must stop after the completion settles (now %v, %d timers)", h.clock.Now(), h.clock.pending())
	}
	h.tickOnce(toast - h.clock.Now())
	if h.clock.pending() != 0 || h.app.notes.q.Len() != 0 {
		t.Fatalf("%d timers after the toast expired", h.clock.pending())
	}
	armed := h.clock.armed
	h.clock.Advance(10 * time.Second)
	if h.clock.armed != armed {
		t.Fatal("a timer was armed while static")
	}
}

func TestLateFramesAreSkippedNotCaughtUp(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	iv := newFrames(60).interval
	h.tickOnce(5 * iv) // the timer fired four intervals late
	if h.app.stats.identityFrames != 1 || h.app.fr.skipped != 4 {
		t.Fatalf("frames %d skipped %d, want 1 and 4", h.app.stats.identityFrames, h.app.fr.skipped)
	}
	if h.clock.pending() != 1 {
		t.Fatal("exactly one next frame is armed")
	}
	h.tickOnce(iv)
	if h.app.stats.identityFrames != 2 {
		t.Fatal("the next frame is one interval after the late one")
	}
}

func TestDialogFreezesTheWaveButNotTheBar(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.keys(key(tcell.KeyCtrlY))
	if h.clock.pending() != 1 {
		t.Fatal("the activity bar keeps moving above dialogs (TUI-REFERENCE §3.3)")
	}
	before := h.screenText()
	for i := 0; i < 7; i++ {
		h.tickOnce(newFrames(60).interval)
	}
	after := h.screenText()
	if before[0] == after[0] {
		t.Fatal("the bar did not move")
	}
	l := h.app.layout()
	for y := 1; y <= 3; y++ {
		if before[y] != after[y] {
			t.Fatalf("the wordmark moved under a dialog (row %d)", y)
		}
	}
	_ = l
}

// nonIdentity is the screen without the identity's cells (activity row,
// wordmark or compact form, wave row).
func nonIdentity(h *harness, rows []string) string {
	l := h.app.layout()
	var b strings.Builder
	for y, r := range rows {
		if y == 0 || y == h.app.waveRow {
			continue
		}
		rs := []rune(r)
		if !l.compact && y >= 1 && y <= 3 && len(rs) > l.sidebar.x {
			rs = rs[:l.sidebar.x]
		}
		if l.compact && y == 1 && len(rs) > 6 {
			rs = rs[6:]
		}
		b.WriteString(string(rs) + "\n")
	}
	return b.String()
}

// At FPS 0 the elapsed counter still ticks once a second on the injected
// clock, on the second's boundary, and its timer stops with the task.
func TestElapsedTicksEverySecondAtFPS0(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.clock.Advance(300 * time.Millisecond) // the task starts mid-second
	running(h)
	if h.app.waveRow < 0 {
		t.Fatal("the wave is not on screen")
	}
	wave := func() string { return h.screenText()[h.app.waveRow] }
	if !strings.Contains(wave(), " 0s") {
		t.Fatalf("wave row %q, want 0s", wave())
	}
	h.tickOnce(999 * time.Millisecond)
	if !strings.Contains(wave(), " 0s") {
		t.Fatalf("ticked early: %q", wave())
	}
	h.tickOnce(time.Millisecond)
	if !strings.Contains(wave(), " 1s") {
		t.Fatalf("after 1 s the wave row reads %q, want 1s", wave())
	}
	for i := 0; i < 60; i++ {
		h.tickOnce(time.Second)
	}
	if !strings.Contains(wave(), "1m01s") {
		t.Fatalf("after 61 s the wave row reads %q, want 1m01s", wave())
	}
	h.records(`{"v":1,"type":"result","status":"completed","task":"tsk_1"}`)
	if h.clock.pending() != 1 || h.app.timerAt != h.clock.Now()+5*time.Second {
		t.Fatalf("after the task ended: %d timers, want only the toast's expiry", h.clock.pending())
	}
	h.tickOnce(5 * time.Second)
	if h.clock.pending() != 0 {
		t.Fatalf("%d timers left after the task ended", h.clock.pending())
	}
}
