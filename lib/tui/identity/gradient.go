package identity

import (
	"math"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Periods of the identity's motion, in seconds (TUI-REFERENCE §2.1).
const (
	WordmarkPeriod = 8.0 // the gradient sweeps and reverses at P, repeats at 2P
	BarPeriod      = 0.3 // gradient along the activity bar
	BarSweep       = 0.8 // the activity bar goes edge → edge → edge
	WavePeriod     = 0.6 // message wave; its clock wraps at the period
	LabelPeriod    = 1.2 // "Working" label; its clock wraps at 2·P
	labelWrap      = 2 * LabelPeriod
	shadowFactor   = 0.32
)

// Gradient stops: cyan → blue → violet.
var stops = [3]theme.RGB{{R: 48, G: 224, B: 224}, {R: 77, G: 151, B: 249}, {R: 167, G: 113, B: 248}}

// Fraction is the gradient position f = (1 − cos(π(p − t/P)))/2 for a
// position p in [0,1] at t seconds with period P. Cosine makes the sweep
// go back and forth instead of jumping.
func Fraction(p, t, period float64) float64 {
	return (1 - math.Cos(math.Pi*(p-t/period))) / 2
}

// Gradient is the default identity colour at fraction f.
func Gradient(f float64) theme.RGB {
	if f < 0.5 {
		return theme.Blend(stops[0], stops[1], 2*f)
	}
	return theme.Blend(stops[1], stops[2], 2*f-1)
}

// Gradient16 is the gradient without RGB: three named colours.
func Gradient16(f float64) tcell.Color {
	switch {
	case f < 0.33:
		return theme.ANSICyan
	case f < 0.66:
		return theme.ANSIBlue
	default:
		return theme.ANSIMagenta
	}
}

// Fire is the high-contrast identity colour at fraction f:
// (255,80,48) → (255,168,24) → (255,255,0).
func Fire(f float64) theme.RGB {
	return theme.RGB{R: 255, G: round8(80 + 175*f), B: round8(48 * (1 - f))}
}

// Fire16 is the fire colour without RGB.
func Fire16(f float64) tcell.Color {
	switch {
	case f < 0.33:
		return theme.ANSILightRed
	case f < 0.66:
		return theme.ANSIYellow
	default:
		return theme.ANSILightYellow
	}
}

func round8(v float64) uint8 {
	r := math.Round(v)
	return uint8(min(max(r, 0), 255))
}

func seconds(d time.Duration) float64 { return d.Seconds() }

// colour is an identity colour before it reaches the terminal: RGB while
// the depth allows it, a named ANSI colour otherwise.
type colour struct {
	rgb   theme.RGB
	named tcell.Color // non-default means named
}

func rgbColour(c theme.RGB) colour     { return colour{rgb: c} }
func namedColour(c tcell.Color) colour { return colour{named: c} }
func (c colour) isRGB() bool           { return c.named == tcell.ColorDefault }

// isShadow is the reference's test for a relief cell after any pass: a
// dark RGB colour (every channel below 100) or named DarkGray. Ink is
// always brighter, so colour alone tells them apart.
func (c colour) isShadow() bool {
	if c.isRGB() {
		return max(c.rgb.R, c.rgb.G, c.rgb.B) < 100
	}
	return c.named == theme.ANSIDarkGray
}

func (c colour) terminal(th *theme.Theme) tcell.Color {
	if c.isRGB() {
		return th.Colour(c.rgb)
	}
	return c.named
}

// gradientAt is the identity gradient at p for the theme's depth.
func gradientAt(p, t, period float64, rgb bool) colour {
	f := Fraction(p, t, period)
	if rgb {
		return rgbColour(Gradient(f))
	}
	return namedColour(Gradient16(f))
}

// fireAt is the fire colour at p for the theme's depth.
func fireAt(p, t, period float64, rgb bool) colour {
	f := Fraction(p, t, period)
	if rgb {
		return rgbColour(Fire(f))
	}
	return namedColour(Fire16(f))
}

// shadowOf darkens a gradient colour into its relief (DarkGray without RGB).
func shadowOf(c colour) colour {
	if c.isRGB() {
		return rgbColour(c.rgb.Scale(shadowFactor))
	}
	return namedColour(theme.ANSIDarkGray)
}

// refire is the high-contrast recolour pass for one colour: shadows take
// the fire colour ×0.32 (Red without RGB), everything else the fire colour.
func refire(original, fire colour) colour {
	if !original.isShadow() {
		return fire
	}
	if fire.isRGB() {
		return rgbColour(fire.rgb.Scale(shadowFactor))
	}
	return namedColour(theme.ANSIRed)
}
