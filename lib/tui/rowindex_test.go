package tui

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

func harnessWithItems(t *testing.T, n int) *harness {
	h := newHarness(t, 160, 50, Options{FPS: 60, Caps: theme.Caps{Depth: theme.TrueColor}})
	running(h)
	var recs []string
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			recs = append(recs, ev(10+i, "message", "", fmt.Sprintf(`{"role":"assistant","content":"Step %d\n\n- one\n- two"}`, i)))
		} else {
			recs = append(recs, ev(10+i, "operation.requested", fmt.Sprintf("op_%d", i), `{"tool":"exec"}`))
		}
	}
	h.records(recs...)
	return h
}

// A full frame over a long history draws only the items in view and
// lays out none again: its work follows the screen, not the history.
func TestFullFrameTouchesOnlyVisibleItems(t *testing.T) {
	h := harnessWithItems(t, 10000)
	if len(h.app.items) != maxItems {
		t.Fatalf("items %d, want %d kept", len(h.app.items), maxItems)
	}
	layouts, drawn := h.app.stats.layouts, h.app.stats.itemsDrawn
	h.app.dirty.all = true
	h.app.render()
	if got := h.app.stats.layouts - layouts; got != 0 {
		t.Fatalf("a full frame laid out %d unchanged items", got)
	}
	if got, max := h.app.stats.itemsDrawn-drawn, h.app.layout().conv.h; got == 0 || got > max {
		t.Fatalf("a full frame drew %d items, want 1..%d (the rows in view)", got, max)
	}
	if !h.contains("Step 9998") {
		t.Fatalf("the newest item is not on screen:\n%v", h.screenText())
	}
}

// A full frame allocates about the same bytes with 2000 items held as
// with 40: no per-frame slice of every row (whose garbage made the tail).
func TestFullFrameAllocationsDoNotGrowWithHistory(t *testing.T) {
	bytesPerFrame := func(n int) uint64 {
		h := harnessWithItems(t, n)
		h.app.dirty.all = true
		h.app.render() // warm the row index
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < 20; i++ {
			h.app.dirty.all = true
			h.app.render()
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 20
	}
	small, large := bytesPerFrame(40), bytesPerFrame(maxItems)
	if large > small+small/2 {
		t.Fatalf("a full frame allocates %d bytes with %d items, %d with 40", large, maxItems, small)
	}
}
