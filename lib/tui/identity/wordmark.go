package identity

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Canvas is where the identity draws; tcell.Screen satisfies it, and tests
// record cells with their own.
type Canvas interface {
	SetContent(x, y int, primary rune, combining []rune, style tcell.Style)
}

// Frame is what one identity frame depends on: nothing else (no clock).
type Frame struct {
	State State
	// Age is the time spent in State; while Moving it is also the
	// gradient's phase, so the wordmark and compact form stay in sync.
	Age time.Duration
	// Moving is MotionActive's verdict. A frame that does not move is
	// drawn at phase 0 with the state's settled strength, so it is the
	// same at every time.
	Moving bool
}

// phase is the animation time in seconds: the age while moving, else 0.
func (f Frame) phase() float64 {
	if f.Moving {
		return seconds(f.Age)
	}
	return 0
}

const lastColumn = float64(PixelWidth - 1)

// columnColours are the ink and shadow colours of one wordmark column
// after every pass, in the reference's order: gradient and relief, the
// high-contrast fire recolour, then the state tint.
func columnColours(col int, th *theme.Theme, f Frame) (inkC, shadowC colour) {
	p := float64(col) / lastColumn
	t := f.phase()
	rgb := th.Caps().RGB()
	inkC = gradientAt(p, t, WordmarkPeriod, rgb)
	shadowC = shadowOf(inkC)
	if th.HighContrast() {
		fire := fireAt(p, t, WordmarkPeriod, rgb)
		inkC, shadowC = refire(inkC, fire), refire(shadowC, fire)
	}
	s := seconds(f.Age)
	named := th.Caps().Depth < theme.TrueColor
	return applyTint(inkC, f.State, p, s, f.Moving, named), applyTint(shadowC, f.State, p, s, f.Moving, named)
}

// Wordmark draws the FLUZO wordmark into the 30×3 cells at (x,y). Every
// cell of the area is written in every mode and state (ASCII pads with
// blanks), so the identity's allocation never changes and a frame fully
// replaces the last one.
func Wordmark(c Canvas, x, y int, th *theme.Theme, f Frame) {
	base := th.Style(theme.Base, 0)
	caps := th.Caps()
	switch {
	case caps.ASCII:
		drawASCII(c, x, y, th, f, base)
	case !caps.Colour():
		drawShapes(c, x, y, &monoShapes, base)
	default:
		drawRelief(c, x, y, th, f, base)
	}
}

func drawRelief(c Canvas, x, y int, th *theme.Theme, f Frame, base tcell.Style) {
	for col := range Width {
		inkC, shadowC := columnColours(col, th, f)
		pick := func(k pixelKind) tcell.Color {
			if k == shadow {
				return shadowC.terminal(th)
			}
			return inkC.terminal(th)
		}
		for r := range Height {
			sh := reliefShapes[r][col]
			style := base
			if sh.fg != empty {
				style = style.Foreground(pick(sh.fg))
			}
			if sh.bg != empty {
				style = style.Background(pick(sh.bg))
			}
			c.SetContent(x+col, y+r, sh.glyph, nil, style)
		}
	}
}

// drawShapes draws the glyphs alone: the monochrome fallback.
func drawShapes(c Canvas, x, y int, shapes *[Height][Width]cellShape, style tcell.Style) {
	for r := range Height {
		for col := range Width {
			c.SetContent(x+col, y+r, shapes[r][col].glyph, nil, style)
		}
	}
}

// drawASCII is the ASCII fallback: FLUZO on the first row (coloured like
// the compact form when colour is on), blanks for the rest of the area.
func drawASCII(c Canvas, x, y int, th *theme.Theme, f Frame, base tcell.Style) {
	n := Compact(c, x, y, th, f)
	for r := range Height {
		for col := range Width {
			if r == 0 && col < n {
				continue
			}
			c.SetContent(x+col, y+r, ' ', nil, base)
		}
	}
}

const wordmarkLetters = "FLUZO"

// CompactWidth is the width of the compact form.
const CompactWidth = len(wordmarkLetters)

// Compact draws the one-line FLUZO at (x,y) and returns its width. Letter
// i takes the wordmark's ink colour at column 6i+2 (the letter's centre),
// at the same phase and state, so the compact and large forms stay in
// sync. Never bold; uncoloured when colour is off.
func Compact(c Canvas, x, y int, th *theme.Theme, f Frame) int {
	base := th.Style(theme.Base, 0)
	for i := range CompactWidth {
		style := base
		if th.Caps().Colour() {
			inkC, _ := columnColours(i*letterPitch+2, th, f)
			style = style.Foreground(inkC.terminal(th))
		}
		c.SetContent(x+i, y, rune(wordmarkLetters[i]), nil, style)
	}
	return CompactWidth
}
