package identity

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The reference's pixel map, character for character.
const referencePixelMap = `#####.#.....#...#.#####..###..
#+++++#+....#+..#+.++#++#.++#.
####..#+....#+..#+..#.+.#+..#+
#++++.#+....#+..#+.#.+..#+..#+
#+....#####..###.+#####..###.+
.+.....+++++..+++..+++++..+++.
`

func TestPixelMapIsTheReference(t *testing.T) {
	if got := PixelMap(); got != referencePixelMap {
		t.Errorf("pixel map:\n%s\nwant:\n%s", got, referencePixelMap)
	}
}

// The reference's half-block rows, exactly (30 cells each, trailing space
// included).
var referenceRows = [3]string{
	"█▀▀▀▀▄█▄    █▄  █▄▀▀▀█▀▄▄▀▀▀▄ ",
	"█▀▀▀▄ ██    ██  ██ ▄▀▄▀ ██  ██",
	"▀█    ▀▀▀▀▀▄ ▀▀▀▄▀▀▀▀▀▀▄ ▀▀▀▄▀",
}

func TestHalfBlockRowsAreTheReference(t *testing.T) {
	for _, caps := range []theme.Caps{{Depth: theme.TrueColor}, {Depth: theme.Color256}, {Depth: theme.Color16}} {
		for _, name := range theme.Names() {
			g := newGrid(Width, Height)
			Wordmark(g, 0, 0, newTheme(t, name, caps), Frame{State: Running})
			for r, want := range referenceRows {
				if got := g.row(r); got != want {
					t.Errorf("%s/%v row %d: %q, want %q", name, caps.Depth, r, got, want)
				}
			}
		}
	}
}

func TestHalfBlockRule(t *testing.T) {
	cases := []struct {
		top, bottom pixelKind
		want        cellShape
	}{
		{empty, empty, cellShape{glyph: ' '}},
		{inked, empty, cellShape{glyph: '▀', fg: inked}},
		{empty, shadow, cellShape{glyph: '▄', fg: shadow}},
		{inked, inked, cellShape{glyph: '█', fg: inked}},
		{shadow, shadow, cellShape{glyph: '█', fg: shadow}},
		{inked, shadow, cellShape{glyph: '▀', fg: inked, bg: shadow}},
		{shadow, inked, cellShape{glyph: '▀', fg: shadow, bg: inked}},
	}
	for _, c := range cases {
		if got := halfBlock(c.top, c.bottom); got != c.want {
			t.Errorf("halfBlock(%d,%d) = %+v, want %+v", c.top, c.bottom, got, c.want)
		}
	}
}

// Monochrome draws ink only: the rows are the ink-only half blocks.
func TestMonochromeIsInkOnly(t *testing.T) {
	g := newGrid(Width, Height)
	Wordmark(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.NoColor}), Frame{State: Running})
	want := [3]string{
		"█▀▀▀▀ █     █   █ ▀▀▀█▀ ▄▀▀▀▄ ",
		"█▀▀▀  █     █   █  ▄▀   █   █ ",
		"▀     ▀▀▀▀▀  ▀▀▀  ▀▀▀▀▀  ▀▀▀  ",
	}
	for r := range Height {
		if got := g.row(r); got != want[r] {
			t.Errorf("mono row %d: %q, want %q", r, got, want[r])
		}
		for x := range Width {
			if g.style(x, r) != tcell.StyleDefault {
				t.Fatalf("mono cell (%d,%d) has style %s", x, r, theme.DescribeStyle(g.style(x, r)))
			}
		}
	}
}
