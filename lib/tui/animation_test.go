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
		if h.clock.armed != 0 {
			t.Fatalf("%s: %d timers armed while running", name, h.clock.armed)
		}
		before := h.screenText()[0]
		h.clock.Advance(5 * time.Second)
		h.records(delta("x"))
		if h.screenText()[0] != before {
			t.Fatalf("%s: the activity bar moved", name)
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
	// The completion tint settles for a second, then nothing moves.
	for i := 0; i < 80 && h.clock.pending() > 0; i++ {
		h.tickOnce(newFrames(60).interval)
	}
	if h.clock.pending() != 0 || h.clock.Now() > 2*time.Second {
		t.Fatalf("the timer must stop after the completion settles (now %v)", h.clock.Now())
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
