package identity

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// modes are the identity's rendering modes the goldens cover.
var modes = []struct {
	name  string
	theme string
	caps  theme.Caps
}{
	{"truecolor", theme.NameDefault, theme.Caps{Depth: theme.TrueColor}},
	{"high-contrast", theme.NameHighContrast, theme.Caps{Depth: theme.TrueColor}},
	{"256", theme.NameDefault, theme.Caps{Depth: theme.Color256}},
	{"16", theme.NameDefault, theme.Caps{Depth: theme.Color16}},
	{"high-contrast-16", theme.NameHighContrast, theme.Caps{Depth: theme.Color16}},
	{"mono", theme.NameDefault, theme.Caps{Depth: theme.NoColor}},
	{"ascii", theme.NameDefault, theme.Caps{Depth: theme.TrueColor, ASCII: true}},
	{"ascii-mono", theme.NameDefault, theme.Caps{Depth: theme.NoColor, ASCII: true}},
}

func TestCompactSamplesTheWordmark(t *testing.T) {
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor})
	g := newGrid(CompactWidth, 1)
	if n := Compact(g, 0, 0, th, Frame{State: Running}); n != 5 {
		t.Fatalf("compact width %d", n)
	}
	if g.row(0) != "FLUZO" {
		t.Fatalf("compact text %q", g.row(0))
	}
	want := []theme.RGB{{R: 49, G: 222, B: 225}, {R: 58, G: 198, B: 233}, {R: 75, G: 155, B: 248}, {R: 128, G: 130, B: 248}, {R: 162, G: 115, B: 248}}
	for i, w := range want {
		st := g.style(i, 0)
		if got := rgbOf(t, fgOf(st)); got != w {
			t.Errorf("letter %d: %v, want %v", i, got, w)
		}
		if _, _, attrs := st.Decompose(); attrs&tcell.AttrBold != 0 {
			t.Errorf("letter %d is bold", i)
		}
		if bgOf(st) != bgOf(th.Style(theme.Base, 0)) {
			t.Errorf("letter %d has its own background", i)
		}
	}
	// In sync with the large form at every phase and state: the letter is
	// the wordmark's ink colour at its centre column.
	for _, st := range allStates {
		for _, age := range []time.Duration{0, 300 * time.Millisecond, 2 * time.Second, 8 * time.Second} {
			f := Frame{State: st, Age: age, Moving: true}
			big, small := newGrid(Width, Height), newGrid(CompactWidth, 1)
			Wordmark(big, 0, 0, th, f)
			Compact(small, 0, 0, th, f)
			for i := range CompactWidth {
				col, row := 6*i+2, 0
				for reliefShapes[row][col].fg != inked {
					row++
				}
				if got, want := fgOf(small.style(i, 0)), fgOf(big.style(col, row)); got != want {
					t.Errorf("%v at %v: letter %d %v, wordmark %v", st, age, i, got, want)
				}
			}
		}
	}
	// Colour off: plain letters.
	g = newGrid(CompactWidth, 1)
	Compact(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.NoColor}), Frame{State: Running, Moving: true})
	for i := range CompactWidth {
		if g.style(i, 0) != tcell.StyleDefault {
			t.Errorf("uncoloured letter %d has style %s", i, theme.DescribeStyle(g.style(i, 0)))
		}
	}
}

func TestASCIIFallback(t *testing.T) {
	for _, depth := range []theme.Depth{theme.NoColor, theme.Color16, theme.TrueColor} {
		g := newGrid(Width, Height)
		Wordmark(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: depth, ASCII: true}), Frame{State: Running})
		want := "FLUZO" + strings.Repeat(" ", Width-5) + "\n" + strings.Repeat(" ", Width) + "\n" + strings.Repeat(" ", Width) + "\n"
		if g.text() != want {
			t.Errorf("%v: ascii wordmark\n%q\nwant\n%q", depth, g.text(), want)
		}
		for _, r := range g.glyphs {
			if r > 127 {
				t.Errorf("%v: non-ASCII glyph %q", depth, r)
			}
		}
	}
}

// The identity's area never changes: every mode, state and time writes
// exactly the 30×3 cells, each once, and nothing outside.
func TestAllocationNeverChanges(t *testing.T) {
	for _, m := range modes {
		th := newTheme(t, m.theme, m.caps)
		for _, st := range allStates {
			for _, age := range []time.Duration{0, 137 * time.Millisecond, 999 * time.Millisecond, 4 * time.Second, 61 * time.Second} {
				for _, moving := range []bool{false, true} {
					g := newGrid(Width+4, Height+4)
					Wordmark(g, 2, 2, th, Frame{State: st, Age: age, Moving: moving})
					for y := range g.h {
						for x := range g.w {
							inside := x >= 2 && x < 2+Width && y >= 2 && y < 2+Height
							n := g.writes[y*g.w+x]
							if inside && n != 1 || !inside && n != 0 {
								t.Fatalf("%s %v %v moving=%v: cell (%d,%d) written %d times", m.name, st, age, moving, x, y, n)
							}
						}
					}
					if g.outsides != 0 {
						t.Fatalf("%s: %d writes outside the canvas", m.name, g.outsides)
					}
				}
			}
		}
	}
}

// At FPS 0 or with reduced motion the gate says "not moving", and the
// frame is then the same at every time, in every mode and state.
func TestStaticWhenMotionIsOff(t *testing.T) {
	for _, m := range modes {
		th := newTheme(t, m.theme, m.caps)
		for _, st := range allStates {
			for _, gate := range []struct {
				fps     int
				reduced bool
			}{{0, false}, {60, true}} {
				var first string
				for i, age := range []time.Duration{0, 250 * time.Millisecond, 700 * time.Millisecond, 3 * time.Second, 4 * time.Second, 90 * time.Second} {
					f := Frame{State: st, Age: age, Moving: MotionActive(st, age, gate.fps, gate.reduced, false)}
					g := newGrid(Width, Height+1)
					Wordmark(g, 0, 0, th, f)
					Compact(g, 0, Height, th, f)
					if i == 0 {
						first = g.dump()
					} else if g.dump() != first {
						t.Fatalf("%s %v fps=%d reduced=%v: frame at %v differs from t=0", m.name, st, gate.fps, gate.reduced, age)
					}
				}
			}
		}
	}
}

// Moving states do move (the guard against a frozen renderer passing the
// static test trivially).
func TestMovingStatesMove(t *testing.T) {
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor})
	for _, st := range []State{Running, Waiting, Completed} {
		a, b := newGrid(Width, Height), newGrid(Width, Height)
		Wordmark(a, 0, 0, th, Frame{State: st, Age: 0, Moving: true})
		Wordmark(b, 0, 0, th, Frame{State: st, Age: 750 * time.Millisecond, Moving: true})
		if a.dump() == b.dump() {
			t.Errorf("%v does not move between 0 and 750ms", st)
		}
	}
}

// TestWordmarkGolden dumps the wordmark (and its compact form) in every
// mode for every state at t=0, moving as the gate allows and static.
func TestWordmarkGolden(t *testing.T) {
	for _, m := range modes {
		th := newTheme(t, m.theme, m.caps)
		var b strings.Builder
		for _, st := range allStates {
			for _, moving := range []bool{MotionActive(st, 0, 60, false, false), false} {
				if moving {
					fmt.Fprintf(&b, "## %s, age 0, moving\n", st)
				} else {
					fmt.Fprintf(&b, "## %s, static\n", st)
				}
				g := newGrid(Width, Height+1)
				f := Frame{State: st, Moving: moving}
				Wordmark(g, 0, 0, th, f)
				Compact(g, 0, Height, th, f)
				b.WriteString(g.dump())
				if !MotionActive(st, 0, 60, false, false) {
					break // a state that never moves has one frame
				}
			}
		}
		checkGolden(t, "wordmark-"+m.name+".golden", b.String())
	}
}
