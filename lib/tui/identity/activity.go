package identity

import (
	"math"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Bar is one frame of the top activity bar.
type Bar struct {
	// T is the time the bar has been working; it drives the sweep and the
	// gradient while Moving.
	T time.Duration
	// Working selects the moving gradient bar over the idle grey one.
	Working bool
	// Moving is BarActive's verdict; a still working bar sits centred with
	// its gradient at phase 0.
	Moving bool
}

const (
	barGlyph      = '▔'
	barGlyphASCII = '-'
)

// BarGeometry is the bar's offset and length for a row of the given
// width: 80% of the width, sweeping edge → edge → edge every 0.8 s while
// moving, centred when still.
func BarGeometry(width int, b Bar) (offset, length int) {
	if width <= 0 {
		return 0, 0
	}
	length = width * 4 / 5
	travel := width - length
	if !b.Moving {
		return travel / 2, length
	}
	sweep := (1 - math.Cos(2*math.Pi*seconds(b.T)/BarSweep)) / 2
	return int(math.Round(float64(travel) * sweep)), length
}

// ActivityBar draws the bar across the full row y (x from 0 to width−1).
// Every cell of the row is written, so the sweep never leaves trails.
func ActivityBar(c Canvas, y, width int, th *theme.Theme, b Bar) {
	offset, length := BarGeometry(width, b)
	base := th.Style(theme.Base, 0)
	caps := th.Caps()
	glyph := barGlyph
	if caps.ASCII {
		glyph = barGlyphASCII
	}
	t := 0.0
	if b.Moving {
		t = seconds(b.T)
	}
	for col := range width {
		if col < offset || col >= offset+length {
			c.SetContent(col, y, ' ', nil, base)
			continue
		}
		style := base
		if caps.Colour() {
			style = style.Foreground(barColour(col, offset, length, width, t, th, b.Working))
		}
		c.SetContent(col, y, glyph, nil, style)
	}
}

// barColour is the gradient along the bar while working (fire in high
// contrast, positioned across the whole row as the recolour pass does),
// idle DarkGray otherwise.
func barColour(col, offset, length, width int, t float64, th *theme.Theme, working bool) tcell.Color {
	if !working {
		return theme.ANSIDarkGray
	}
	rgb := th.Caps().RGB()
	if th.HighContrast() {
		return fireAt(float64(col)/float64(max(width-1, 1)), t, BarPeriod, rgb).terminal(th)
	}
	return gradientAt(float64(col-offset)/float64(max(length-1, 1)), t, BarPeriod, rgb).terminal(th)
}
