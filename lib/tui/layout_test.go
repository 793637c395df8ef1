package tui

import "testing"

// The cell budgets of TUI-REFERENCE §3.1 with an empty draft.
func TestLayoutCellBudgets(t *testing.T) {
	type want struct {
		compact            bool
		conv               rect
		scrollbar          int
		composerTop, compB int
		footer             int
		sidebarX, sidebarR int
	}
	cases := []struct {
		w, h int
		want want
	}{
		{80, 24, want{true, rect{1, 3, 77, 13}, 78, 17, 21, 22, 0, 0}},
		{120, 40, want{false, rect{1, 1, 85, 31}, 86, 33, 37, 38, 88, 117}},
		{160, 50, want{false, rect{1, 1, 125, 41}, 126, 43, 47, 48, 128, 157}},
	}
	for _, c := range cases {
		l := computeLayout(c.w, c.h, 0, false)
		got := want{l.compact, l.conv, l.scrollbar, l.composer.y, l.composer.bottom() - 1, l.footer, l.sidebar.x, l.sidebar.right() - 1}
		if !l.compact && got.sidebarR != c.want.sidebarR {
			t.Errorf("%dx%d sidebar right = %d", c.w, c.h, got.sidebarR)
		}
		if l.compact {
			got.sidebarX, got.sidebarR = 0, 0
		}
		if got != c.want {
			t.Errorf("%dx%d:\n got %+v\nwant %+v", c.w, c.h, got, c.want)
		}
	}
	if l := computeLayout(160, 50, 0, false); l.textW-2 != 120 {
		t.Errorf("160x50 text width = %d, want capped at 120", l.textW-2)
	}
	for _, sz := range [][2]int{{119, 40}, {120, 29}} {
		if l := computeLayout(sz[0], sz[1], 0, false); !l.compact || l.header != 3 || l.sidebar.w != 0 {
			t.Errorf("%dx%d must be compact (breakpoint): %+v", sz[0], sz[1], l)
		}
	}
	if l := computeLayout(120, 30, 0, false); l.compact {
		t.Error("120x30 is wide")
	}
	if l := computeLayout(120, 40, 0, true); !l.compact {
		t.Error("a hidden sidebar makes the layout compact")
	}
	if !computeLayout(59, 24, 0, false).tooSmall || !computeLayout(80, 15, 0, false).tooSmall || computeLayout(60, 16, 0, false).tooSmall {
		t.Error("the minimum is 60x16")
	}
}

func TestComposerHeightClamp(t *testing.T) {
	for _, c := range []struct{ lines, want int }{{0, 5}, {1, 5}, {3, 5}, {7, 9}, {15, 17}, {40, 17}} {
		if got := computeLayout(200, 60, c.lines, false).composer.h; got != c.want {
			t.Errorf("%d lines: composer %d rows, want %d", c.lines, got, c.want)
		}
	}
	// Capped at H-header-5 on a short terminal.
	if got := computeLayout(80, 16, 40, false).composer.h; got != 16-3-5 {
		t.Errorf("80x16 composer = %d", got)
	}
}
