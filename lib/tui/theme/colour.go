package theme

import (
	"math"

	"github.com/gdamore/tcell/v2"
)

// RGB is a 24-bit colour as the identity and palettes define it; it is
// mapped to a terminal colour only at the end, by the capability depth.
type RGB struct{ R, G, B uint8 }

// Scale multiplies every channel by f and rounds half away from zero,
// clamping to 0–255 (used for shadows ×0.32 and state strengths).
func (c RGB) Scale(f float64) RGB {
	return RGB{scaleChannel(c.R, f), scaleChannel(c.G, f), scaleChannel(c.B, f)}
}

func scaleChannel(v uint8, f float64) uint8 {
	return clampChannel(float64(v) * f)
}

func clampChannel(v float64) uint8 {
	r := math.Round(v)
	if r <= 0 {
		return 0
	}
	if r >= 255 {
		return 255
	}
	return uint8(r)
}

// Blend mixes a towards b by k in [0,1], rounding each channel.
func Blend(a, b RGB, k float64) RGB {
	mix := func(x, y uint8) uint8 { return clampChannel(float64(x) + (float64(y)-float64(x))*k) }
	return RGB{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B)}
}

// The 16 named ANSI colours by palette index. tcell's own names differ
// (its ColorRed is bright red, its ColorDarkGray is an RGB value), so the
// reference's names are spelled out here against the indices they mean.
var (
	ANSIBlack        = tcell.PaletteColor(0)
	ANSIRed          = tcell.PaletteColor(1)
	ANSIGreen        = tcell.PaletteColor(2)
	ANSIYellow       = tcell.PaletteColor(3)
	ANSIBlue         = tcell.PaletteColor(4)
	ANSIMagenta      = tcell.PaletteColor(5)
	ANSICyan         = tcell.PaletteColor(6)
	ANSIGray         = tcell.PaletteColor(7)
	ANSIDarkGray     = tcell.PaletteColor(8)
	ANSILightRed     = tcell.PaletteColor(9)
	ANSILightGreen   = tcell.PaletteColor(10)
	ANSILightYellow  = tcell.PaletteColor(11)
	ANSILightBlue    = tcell.PaletteColor(12)
	ANSILightMagenta = tcell.PaletteColor(13)
	ANSILightCyan    = tcell.PaletteColor(14)
	ANSIWhite        = tcell.PaletteColor(15)
)

// ansiTable is the reference's fixed 16-entry table for the reduction
// pass, in its order (ties go to the earlier entry).
var ansiTable = [16]RGB{
	{0, 0, 0}, {128, 0, 0}, {0, 128, 0}, {128, 128, 0},
	{0, 0, 128}, {128, 0, 128}, {0, 128, 128}, {192, 192, 192},
	{128, 128, 128}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0},
	{0, 0, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// Reduce16 maps an RGB colour to one of the 16 named ANSI colours with the
// reference's pass: near-neutral colours (channel spread < 24) go by their
// integer channel average to Black/DarkGray/Gray/White so greys never turn
// blue or green; everything else takes the nearest table entry.
func Reduce16(c RGB) tcell.Color {
	hi := max(c.R, c.G, c.B)
	lo := min(c.R, c.G, c.B)
	if hi-lo < 24 {
		switch avg := (int(c.R) + int(c.G) + int(c.B)) / 3; {
		case avg <= 47:
			return ANSIBlack
		case avg <= 159:
			return ANSIDarkGray
		case avg <= 223:
			return ANSIGray
		default:
			return ANSIWhite
		}
	}
	best, bestDist := 0, math.MaxInt
	for i, e := range ansiTable {
		dr, dg, db := int(c.R)-int(e.R), int(c.G)-int(e.G), int(c.B)-int(e.B)
		if d := dr*dr + dg*dg + db*db; d < bestDist {
			best, bestDist = i, d
		}
	}
	return tcell.PaletteColor(best)
}

// cubeLevels are the channel values of the xterm 6×6×6 colour cube.
var cubeLevels = [6]int{0, 95, 135, 175, 215, 255}

// Fit256 maps an RGB colour to the nearest entry of the standardized part
// of the xterm 256 palette (the cube 16–231 and the grey ramp 232–255).
// Entries 0–15 are left out because terminals restyle them freely.
func Fit256(c RGB) tcell.Color {
	ri, gi, bi := nearestLevel(c.R), nearestLevel(c.G), nearestLevel(c.B)
	cube := RGB{uint8(cubeLevels[ri]), uint8(cubeLevels[gi]), uint8(cubeLevels[bi])}
	avg := (int(c.R) + int(c.G) + int(c.B)) / 3
	gi24 := min(max((avg-8+5)/10, 0), 23)
	g := uint8(8 + 10*gi24)
	if distance(c, RGB{g, g, g}) < distance(c, cube) {
		return tcell.PaletteColor(232 + gi24)
	}
	return tcell.PaletteColor(16 + 36*ri + 6*gi + bi)
}

func nearestLevel(v uint8) int {
	best, bestDist := 0, math.MaxInt
	for i, l := range cubeLevels {
		d := int(v) - l
		if d < 0 {
			d = -d
		}
		if d < bestDist {
			best, bestDist = i, d
		}
	}
	return best
}

func distance(a, b RGB) int {
	dr, dg, db := int(a.R)-int(b.R), int(a.G)-int(b.G), int(a.B)-int(b.B)
	return dr*dr + dg*dg + db*db
}

// Colour maps an RGB colour to what this depth can show: exact RGB in
// truecolor, the 256 palette fit, the reference's 16-colour pass, or the
// terminal default with colour off.
func (d Depth) Colour(c RGB) tcell.Color {
	switch d {
	case TrueColor:
		return tcell.NewRGBColor(int32(c.R), int32(c.G), int32(c.B))
	case Color256:
		return Fit256(c)
	case Color16:
		return Reduce16(c)
	default:
		return tcell.ColorDefault
	}
}

// Pair maps a foreground/background pair like Colour, plus the reference's
// rule 3: when two distinct colours collapse to the same named colour the
// text would vanish, so the foreground becomes DarkGray (on Black) or
// Black.
func (d Depth) Pair(fg, bg RGB) (tcell.Color, tcell.Color) {
	f, b := d.Colour(fg), d.Colour(bg)
	if d == Color16 && fg != bg && f == b {
		if b == ANSIBlack {
			f = ANSIDarkGray
		} else {
			f = ANSIBlack
		}
	}
	return f, b
}
