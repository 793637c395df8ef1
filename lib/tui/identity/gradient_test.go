package identity

import (
	"math"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

func TestGradientAtTimeZero(t *testing.T) {
	want := map[int]theme.RGB{
		0: {R: 48, G: 224, B: 224}, 2: {R: 49, G: 222, B: 225}, 8: {R: 58, G: 198, B: 233},
		14: {R: 75, G: 155, B: 248}, 20: {R: 128, G: 130, B: 248}, 26: {R: 162, G: 115, B: 248},
		29: {R: 167, G: 113, B: 248},
	}
	for col, w := range want {
		if got := Gradient(Fraction(float64(col)/29, 0, WordmarkPeriod)); got != w {
			t.Errorf("column %d: %v, want %v", col, got, w)
		}
	}
}

func TestGradientSweepsBackAndForth(t *testing.T) {
	blue := theme.RGB{R: 77, G: 151, B: 249}
	cyan := theme.RGB{R: 48, G: 224, B: 224}
	violet := theme.RGB{R: 167, G: 113, B: 248}
	at := func(p, s float64) theme.RGB { return Gradient(Fraction(p, s, WordmarkPeriod)) }
	checks := []struct {
		p, s float64
		want theme.RGB
	}{
		{0, 4, blue}, {1, 4, blue}, // t = P/2: both ends blue
		{0, 8, violet}, {1, 8, cyan}, // t = P: reversed
		{0, 16, cyan}, {1, 16, violet}, // t = 2P: back to the start
	}
	for _, c := range checks {
		if got := at(c.p, c.s); got != c.want {
			t.Errorf("p=%v t=%v: %v, want %v", c.p, c.s, got, c.want)
		}
	}
}

func TestFire(t *testing.T) {
	cases := map[float64]theme.RGB{
		0: {R: 255, G: 80, B: 48}, 0.5: {R: 255, G: 168, B: 24}, 1: {R: 255, G: 255, B: 0},
	}
	for f, want := range cases {
		if got := Fire(f); got != want {
			t.Errorf("Fire(%v) = %v, want %v", f, got, want)
		}
	}
}

func TestSixteenColourFallbacks(t *testing.T) {
	cases := []struct {
		f          float64
		grad, fire tcell.Color
	}{
		{0, theme.ANSICyan, theme.ANSILightRed},
		{0.3299, theme.ANSICyan, theme.ANSILightRed},
		{0.33, theme.ANSIBlue, theme.ANSIYellow},
		{0.6599, theme.ANSIBlue, theme.ANSIYellow},
		{0.66, theme.ANSIMagenta, theme.ANSILightYellow},
		{1, theme.ANSIMagenta, theme.ANSILightYellow},
	}
	for _, c := range cases {
		if got := Gradient16(c.f); got != c.grad {
			t.Errorf("Gradient16(%v) = %v, want %v", c.f, got, c.grad)
		}
		if got := Fire16(c.f); got != c.fire {
			t.Errorf("Fire16(%v) = %v, want %v", c.f, got, c.fire)
		}
	}
}

func TestPeriods(t *testing.T) {
	if WordmarkPeriod != 8 || BarPeriod != 0.3 || BarSweep != 0.8 || WavePeriod != 0.6 || LabelPeriod != 1.2 || labelWrap != 2.4 {
		t.Error("a motion period changed")
	}
	if math.Abs(Fraction(0.3, 16, 8)-Fraction(0.3, 0, 8)) > 1e-12 {
		t.Error("the gradient does not repeat at 2P")
	}
}

// High contrast: ink takes the fire colour, shadow fire ×0.32.
func TestHighContrastRecolour(t *testing.T) {
	g := newGrid(Width, Height)
	Wordmark(g, 0, 0, newTheme(t, theme.NameHighContrast, theme.Caps{Depth: theme.TrueColor}), Frame{State: Running})
	// (0,1): top ink, bottom shadow → ▀ fire(0) on fire(0)×0.32.
	st := g.style(0, 0)
	if got := rgbOf(t, fgOf(st)); got != (theme.RGB{R: 255, G: 80, B: 48}) {
		t.Errorf("HC ink at column 0: %v", got)
	}
	st = g.style(1, 0)
	if got := rgbOf(t, bgOf(st)); got != (theme.RGB{R: 82, G: 26, B: 15}) {
		t.Errorf("HC shadow at column 1: %v", got)
	}
	// Column 29 holds shadow only: fire(1)×0.32.
	st = g.style(29, 1)
	if got := rgbOf(t, fgOf(st)); got != (theme.RGB{R: 82, G: 82, B: 0}) {
		t.Errorf("HC shadow at column 29: %v", got)
	}
	if got := bgOf(g.style(0, 0)); got != theme.ANSIBlack {
		t.Errorf("HC surface is %v, want black", got)
	}
	// Without RGB: LightRed ink, Red shadow.
	g = newGrid(Width, Height)
	Wordmark(g, 0, 0, newTheme(t, theme.NameHighContrast, theme.Caps{Depth: theme.Color16}), Frame{State: Running})
	if fg, bg := fgOf(g.style(1, 0)), bgOf(g.style(1, 0)); fg != theme.ANSILightRed || bg != theme.ANSIRed {
		t.Errorf("HC 16 colours at column 1: %v on %v", fg, bg)
	}
}

func TestDefaultShadowIsGradientTimesPointThreeTwo(t *testing.T) {
	g := newGrid(Width, Height)
	Wordmark(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor}), Frame{State: Running})
	// Cell (1,0): top ink, bottom shadow.
	if got := rgbOf(t, bgOf(g.style(1, 0))); got != Gradient(Fraction(1.0/29, 0, 8)).Scale(0.32) {
		t.Errorf("shadow at column 1: %v", got)
	}
	g = newGrid(Width, Height)
	Wordmark(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.Color16}), Frame{State: Running})
	if fg, bg := fgOf(g.style(1, 0)), bgOf(g.style(1, 0)); fg != theme.ANSICyan || bg != theme.ANSIDarkGray {
		t.Errorf("16 colours at column 1: %v on %v", fg, bg)
	}
}
