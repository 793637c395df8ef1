package identity

import (
	"math"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

var allStates = []State{Pending, Ready, Running, Waiting, Blocked, Stopping, Completed, Failed, Cancelled}

func TestStateFromTask(t *testing.T) {
	for _, s := range allStates {
		got, ok := StateFromTask(s.String())
		if !ok || got != s {
			t.Errorf("StateFromTask(%q) = %v, %v", s.String(), got, ok)
		}
	}
	want := []string{"pending", "ready", "running", "waiting", "blocked", "stopping", "completed", "failed", "cancelled"}
	for i, s := range allStates {
		if s.String() != want[i] {
			t.Errorf("state %d is %q, want %q", i, s, want[i])
		}
	}
	for _, s := range []string{"", "Running", "interrupted", "paused"} {
		if got, ok := StateFromTask(s); ok || got != Pending {
			t.Errorf("StateFromTask(%q) = %v, %v; want Pending, false", s, got, ok)
		}
	}
}

func TestMotionActive(t *testing.T) {
	cases := []struct {
		s       State
		age     time.Duration
		fps     int
		reduced bool
		overlay bool
		want    bool
	}{
		{Running, 0, 60, false, false, true},
		{Waiting, time.Hour, 60, false, false, true},
		{Completed, 999 * time.Millisecond, 60, false, false, true},
		{Completed, time.Second, 60, false, false, false},
		{Failed, 0, 60, false, false, false},
		{Cancelled, 0, 60, false, false, false},
		{Pending, 0, 60, false, false, false},
		{Ready, 0, 60, false, false, false},
		{Blocked, 0, 60, false, false, false},
		{Stopping, 0, 60, false, false, false},
		{Running, 0, 0, false, false, false},
		{Running, 0, 60, true, false, false},
		{Running, 0, 60, false, true, false},
		{Running, 0, 1, false, false, true},
	}
	for _, c := range cases {
		if got := MotionActive(c.s, c.age, c.fps, c.reduced, c.overlay); got != c.want {
			t.Errorf("MotionActive(%v, %v, fps %d, reduced %v, overlay %v) = %v", c.s, c.age, c.fps, c.reduced, c.overlay, got)
		}
	}
	if !BarActive(Running, 60, false) || BarActive(Running, 0, false) || BarActive(Running, 60, true) || BarActive(Waiting, 60, false) {
		t.Error("BarActive gate")
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTintStrengths(t *testing.T) {
	cases := []struct {
		st     State
		p, s   float64
		moving bool
		tint   theme.RGB
		has    bool
		want   float64
	}{
		{Pending, 0.3, 0, true, theme.RGB{}, false, 0.55},
		{Ready, 0.3, 5, false, theme.RGB{}, false, 0.55},
		{Running, 0.5, 0, true, theme.RGB{}, false, 1.0},   // centre, d=0
		{Running, 0.25, 0, true, theme.RGB{}, false, 0.5},  // d=0.5: trough
		{Running, 0.5, 0.8, true, theme.RGB{}, false, 0.5}, // centre half a pulse later
		{Running, 0, 0.8, true, theme.RGB{}, false, 0.5},   // d=1, s/1.6=0.5
		{Running, 0.25, 3, false, theme.RGB{}, false, 1.0}, // frozen
		{Waiting, 0, 0, true, theme.RGB{R: 255, G: 190, B: 80}, true, 0.90},
		{Waiting, 0, 1.5, true, theme.RGB{R: 255, G: 190, B: 80}, true, 0.60},
		{Waiting, 0, 1.5, false, theme.RGB{R: 255, G: 190, B: 80}, true, 0.90},
		{Blocked, 0, 9, true, theme.RGB{R: 230, G: 175, B: 60}, true, 1},
		{Stopping, 0, 9, false, theme.RGB{R: 230, G: 175, B: 60}, true, 1},
		{Completed, 0, 0, true, theme.RGB{R: 0, G: 255, B: 178}, true, 1},
		{Completed, 0, 0.5, true, theme.RGB{R: 0, G: 255, B: 178}, true, 0.825},
		{Completed, 0, 2, true, theme.RGB{R: 0, G: 255, B: 178}, true, 0.65},
		{Completed, 0, 0, false, theme.RGB{R: 0, G: 255, B: 178}, true, 0.65},
		{Failed, 0, 0, true, theme.RGB{R: 255, G: 90, B: 90}, true, 1},
		{Cancelled, 0, 0, true, theme.RGB{R: 133, G: 131, B: 146}, true, 1},
	}
	for _, c := range cases {
		got := tintFor(c.st, c.p, c.s, c.moving)
		if got.hasTint != c.has || got.rgb != c.tint || !near(got.strength, c.want) {
			t.Errorf("%v p=%v s=%v moving=%v: %+v, want tint %v(%v) strength %v", c.st, c.p, c.s, c.moving, got, c.tint, c.has, c.want)
		}
	}
}

// The reference's test anchor: Completed at age 0 gives relief
// (0,255,178) and shadow (0,82,57). No cell has shadow over ink, so the
// relief is checked on every ink half and the shadow on every shadow half.
func TestCompletedAnchor(t *testing.T) {
	g := newGrid(Width, Height)
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor})
	Wordmark(g, 0, 0, th, Frame{State: Completed, Age: 0, Moving: MotionActive(Completed, 0, 60, false, false)})
	want := map[pixelKind]theme.RGB{inked: {R: 0, G: 255, B: 178}, shadow: {R: 0, G: 82, B: 57}}
	counts := map[pixelKind]int{}
	for r := range Height {
		for x := range Width {
			sh := reliefShapes[r][x]
			for _, half := range []struct {
				kind pixelKind
				c    tcell.Color
			}{{sh.fg, fgOf(g.style(x, r))}, {sh.bg, bgOf(g.style(x, r))}} {
				if half.kind == empty {
					continue
				}
				counts[half.kind]++
				if got := rgbOf(t, half.c); got != want[half.kind] {
					t.Errorf("kind %d at (%d,%d) = %v, want %v", half.kind, x, r, got, want[half.kind])
				}
			}
		}
	}
	if counts[inked] == 0 || counts[shadow] == 0 {
		t.Fatalf("anchor checked %v", counts)
	}
	// Shadow as background (the ▀ ink-over-shadow cells) is the anchor's
	// "shadow bg".
	if got := rgbOf(t, bgOf(g.style(1, 0))); got != want[shadow] {
		t.Errorf("shadow bg at (1,0) = %v", got)
	}
}

// Without a tint the cell's own colour is scaled: Pending dims to 0.55,
// its shadow too (already ×0.32).
func TestUntintedStatesScaleOwnColour(t *testing.T) {
	g := newGrid(Width, Height)
	Wordmark(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor}), Frame{State: Pending})
	if got := rgbOf(t, fgOf(g.style(0, 0))); got != (theme.RGB{R: 26, G: 123, B: 123}) {
		t.Errorf("pending ink at column 0: %v", got)
	}
	want := Gradient(Fraction(1.0/29, 0, 8)).Scale(0.32).Scale(0.55)
	if got := rgbOf(t, bgOf(g.style(1, 0))); got != want {
		t.Errorf("pending shadow at column 1: %v, want %v", got, want)
	}
	// Waiting frozen: amber ×0.90 on ink, ×0.90×0.32 on shadow.
	g = newGrid(Width, Height)
	Wordmark(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor}), Frame{State: Waiting})
	if got := rgbOf(t, fgOf(g.style(0, 0))); got != (theme.RGB{R: 230, G: 171, B: 72}) {
		t.Errorf("waiting ink: %v", got)
	}
	if got := rgbOf(t, bgOf(g.style(1, 0))); got != (theme.RGB{R: 73, G: 55, B: 23}) {
		t.Errorf("waiting shadow: %v", got)
	}
}

// Without RGB the states map to named colours; shadows stay DarkGray and
// Running keeps its 16-colour gradient.
func TestNonRGBStateColours(t *testing.T) {
	want := map[State]tcell.Color{
		Pending: theme.ANSIDarkGray, Ready: theme.ANSIDarkGray, Cancelled: theme.ANSIDarkGray,
		Waiting: theme.ANSIYellow, Blocked: theme.ANSIYellow, Stopping: theme.ANSIYellow,
		Completed: theme.ANSIGreen, Failed: theme.ANSIRed, Running: theme.ANSICyan,
	}
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.Color16})
	for st, w := range want {
		g := newGrid(Width, Height)
		Wordmark(g, 0, 0, th, Frame{State: st})
		if fg := fgOf(g.style(1, 0)); fg != w {
			t.Errorf("%v ink: %v, want %v", st, fg, w)
		}
		if bg := bgOf(g.style(1, 0)); bg != theme.ANSIDarkGray {
			t.Errorf("%v shadow: %v, want DarkGray", st, bg)
		}
		for i := range g.styles {
			if fgOf(g.styles[i]).IsRGB() || bgOf(g.styles[i]).IsRGB() {
				t.Fatalf("%v: RGB colour in 16-colour mode at cell %d", st, i)
			}
		}
	}
}

// With colour off no tint applies: every state draws the same.
func TestNoTintWithoutColour(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.NoColor, ASCII: ascii})
		first := newGrid(Width, Height)
		Wordmark(first, 0, 0, th, Frame{State: Pending})
		for _, st := range allStates {
			g := newGrid(Width, Height)
			Wordmark(g, 0, 0, th, Frame{State: st, Age: 300 * time.Millisecond, Moving: true})
			if g.dump() != first.dump() {
				t.Errorf("ascii=%v: %v differs from pending without colour", ascii, st)
			}
		}
	}
}
