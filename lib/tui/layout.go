package tui

// rect is a region of cells.
type rect struct{ x, y, w, h int }

func (r rect) right() int  { return r.x + r.w }
func (r rect) bottom() int { return r.y + r.h }

// Minimum usable size; below it a resize notice replaces the screen.
const (
	minW = 60
	minH = 16
	// Wide mode (sidebar) from this size on, as in Crush.
	wideW = 120
	wideH = 30
	// textCap bounds the conversation's text width for readability.
	textCap = 120
)

// layout is where every region sits for one terminal size (TUI-REFERENCE
// §3.1). It is computed from the size and the draft's line count only.
type layout struct {
	w, h      int
	tooSmall  bool
	compact   bool
	header    int // rows above the conversation
	conv      rect
	scrollbar int // column of the scrollbar
	textW     int // text width inside the conversation (gutter included)
	composer  rect
	footer    int
	sidebar   rect // zero in compact mode
}

func computeLayout(w, h, draftLines int, sidebarHidden bool) layout {
	l := layout{w: w, h: h}
	if w < minW || h < minH {
		l.tooSmall = true
		return l
	}
	l.compact = w < wideW || h < wideH || sidebarHidden
	bodyW := w - 34
	l.header = 1
	if l.compact {
		bodyW, l.header = w-2, 3
	}
	ch := clamp(draftLines, 3, 15) + 2
	if max := h - l.header - 5; ch > max {
		ch = max
	}
	l.footer = h - 2
	l.composer = rect{1, l.footer - ch, bodyW, ch}
	l.conv = rect{1, l.header, bodyW - 1, l.composer.y - 1 - l.header}
	l.scrollbar = l.conv.right()
	l.textW = l.conv.w
	if l.textW-2 > textCap {
		l.textW = textCap + 2
	}
	if !l.compact {
		l.sidebar = rect{1 + bodyW + 1, 1, 30, h - 3}
	}
	return l
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
