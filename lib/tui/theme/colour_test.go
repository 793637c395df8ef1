package theme

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestReduce16(t *testing.T) {
	cases := []struct {
		in   RGB
		want tcell.Color
		why  string
	}{
		{RGB{32, 31, 38}, ANSIBlack, "Pepper: neutral, average 33"},
		{RGB{45, 44, 54}, ANSIBlack, "BBQ: neutral, integer average 47 is still Black"},
		{RGB{48, 48, 48}, ANSIDarkGray, "average 48 starts DarkGray"},
		{RGB{58, 57, 67}, ANSIDarkGray, "Charcoal"},
		{RGB{133, 131, 146}, ANSIDarkGray, "Squid: spread 15"},
		{RGB{159, 159, 159}, ANSIDarkGray, "average 159 is the last DarkGray"},
		{RGB{160, 160, 160}, ANSIGray, "average 160 starts Gray"},
		{RGB{223, 223, 223}, ANSIGray, "average 223 is the last Gray"},
		{RGB{236, 235, 240}, ANSIWhite, "Sash"},
		{RGB{255, 250, 241}, ANSIWhite, "Butter: spread 14"},
		{RGB{107, 80, 255}, ANSILightBlue, "Charple"},
		{RGB{0, 255, 178}, ANSILightCyan, "Julep"},
		{RGB{0, 164, 255}, ANSILightCyan, "Malibu: nearer LightCyan (8281) than LightBlue (26896)"},
		{RGB{255, 96, 255}, ANSILightMagenta, "Dolly"},
		{RGB{48, 224, 224}, ANSILightCyan, "gradient stop 0"},
		{RGB{167, 113, 248}, ANSIGray, "gradient stop 2: nearest is Gray (10002)"},
		{RGB{255, 80, 48}, ANSILightRed, "fire start"},
		{RGB{255, 255, 0}, ANSILightYellow, "fire end"},
		{RGB{0, 82, 57}, ANSIGreen, "completed shadow"},
		{RGB{100, 0, 100}, ANSIMagenta, "dark magenta"},
		{RGB{0, 0, 64}, ANSIBlack, "tie between Black and Blue goes to Black (table order)"},
	}
	for _, c := range cases {
		if got := Reduce16(c.in); got != c.want {
			t.Errorf("%s: Reduce16(%v) = %v, want %v", c.why, c.in, got, c.want)
		}
	}
}

func TestPairCollapse(t *testing.T) {
	// Two distinct near-blacks collapse to Black: fg becomes DarkGray.
	f, b := Color16.Pair(RGB{10, 10, 10}, RGB{32, 31, 38})
	if f != ANSIDarkGray || b != ANSIBlack {
		t.Errorf("collapse on black: %v on %v", f, b)
	}
	// Two distinct light blues collapse: fg becomes Black.
	f, b = Color16.Pair(RGB{107, 80, 255}, RGB{0, 0, 200})
	if f != ANSIBlack || b != ANSILightBlue {
		t.Errorf("collapse on blue: %v on %v", f, b)
	}
	// The same colour on itself is left alone (a solid block, on purpose).
	f, b = Color16.Pair(RGB{0, 0, 255}, RGB{0, 0, 255})
	if f != ANSILightBlue || b != ANSILightBlue {
		t.Errorf("equal pair changed: %v on %v", f, b)
	}
	// Truecolor never rewrites.
	f, _ = TrueColor.Pair(RGB{10, 10, 10}, RGB{32, 31, 38})
	if f != tcell.NewRGBColor(10, 10, 10) {
		t.Errorf("truecolor pair rewrote fg: %v", f)
	}
}

func TestDepthColour(t *testing.T) {
	c := RGB{107, 80, 255}
	cases := []struct {
		d    Depth
		want tcell.Color
	}{
		{TrueColor, tcell.NewRGBColor(107, 80, 255)},
		{Color256, tcell.PaletteColor(16 + 36*1 + 6*1 + 5)}, // cube (95,95,255)
		{Color16, ANSILightBlue},
		{NoColor, tcell.ColorDefault},
	}
	for _, tc := range cases {
		if got := tc.d.Colour(c); got != tc.want {
			t.Errorf("%v: Colour = %v, want %v", tc.d, got, tc.want)
		}
	}
}

func TestFit256(t *testing.T) {
	cases := []struct {
		in   RGB
		want int
	}{
		{RGB{0, 0, 0}, 16},
		{RGB{255, 255, 255}, 231},
		{RGB{236, 235, 240}, 255}, // Sash: grey 238 beats cube 255
		{RGB{32, 31, 38}, 235},    // Pepper: grey 38
		{RGB{0, 255, 178}, 49},    // Julep: cube (0,255,175)
		{RGB{48, 224, 224}, 80},   // cube (95,215,215): 48 is nearer 95 than 0
		{RGB{128, 128, 128}, 244}, // grey 128
		{RGB{255, 96, 255}, 207},  // cube (255,95,255)
	}
	for _, c := range cases {
		if got := Fit256(c.in); got != tcell.PaletteColor(c.want) {
			t.Errorf("Fit256(%v) = %v, want palette %d", c.in, got, c.want)
		}
	}
}

func TestScaleRounds(t *testing.T) {
	if got := (RGB{0, 255, 178}).Scale(0.32); got != (RGB{0, 82, 57}) {
		t.Errorf("Julep ×0.32 = %v", got)
	}
	if got := (RGB{48, 224, 224}).Scale(0.32); got != (RGB{15, 72, 72}) {
		t.Errorf("cyan ×0.32 = %v", got)
	}
	if got := (RGB{200, 200, 200}).Scale(2); got != (RGB{255, 255, 255}) {
		t.Errorf("scale clamps: %v", got)
	}
}
