package identity

import (
	"math"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Wave is one frame of the message wave row that stands where the next
// assistant message will appear: "  ▁ ▃ ▅ … █  Working 12s".
type Wave struct {
	// T drives the wave (its clock wraps at 0.6 s) and the label colour
	// (wraps at 2.4 s) while Moving.
	T time.Duration
	// Moving is false at FPS 0, with reduced motion or under an overlay:
	// the wave and label then stay at phase 0.
	Moving bool
	// Label follows the wave; empty means "Working".
	Label string
	// Elapsed is shown in muted after the label; it is wall time that
	// advances every second even when nothing moves.
	Elapsed time.Duration
}

const (
	waveIndent  = 2
	waveColumns = 15 // bars in the 8 even columns
	waveLast    = waveColumns - 1
	labelGap    = 2
)

var (
	waveGlyphs      = [8]rune{'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}
	waveGlyphsASCII = [8]rune{'.', '_', '_', '=', '=', '#', '#', '#'}
)

// WaveLevel is the bar height (0–7) of wave column col at wave time tau.
func WaveLevel(col int, tau float64) int {
	phase := 2 * math.Pi * (float64(col)/waveLast - tau/WavePeriod)
	return min(max(int(math.Round((math.Sin(phase)+1)*3.5)), 0), 7)
}

// DrawWave draws the wave row at (x,y) and returns the cells written.
func DrawWave(c Canvas, x, y int, th *theme.Theme, w Wave) int {
	base := th.Style(theme.Base, 0)
	caps := th.Caps()
	glyphs := &waveGlyphs
	if caps.ASCII {
		glyphs = &waveGlyphsASCII
	}
	tau, labelT := 0.0, 0.0
	if w.Moving {
		tau = math.Mod(seconds(w.T), WavePeriod)
		labelT = math.Mod(seconds(w.T), labelWrap)
	}
	n := 0
	put := func(r rune, style tcell.Style) {
		c.SetContent(x+n, y, r, nil, style)
		n++
	}
	for range waveIndent {
		put(' ', base)
	}
	for col := range waveColumns {
		if col%2 == 1 {
			put(' ', base)
			continue
		}
		style := base
		if caps.Colour() {
			style = style.Foreground(waveColour(col, tau, labelT, th).terminal(th))
		}
		put(glyphs[WaveLevel(col, tau)], style)
	}
	for range labelGap {
		put(' ', base)
	}
	label := w.Label
	if label == "" {
		label = "Working"
	}
	labelStyle := base
	if caps.Colour() {
		labelStyle = labelStyle.Foreground(labelColour(labelT, th).terminal(th))
	}
	for _, r := range label {
		put(r, labelStyle)
	}
	put(' ', base)
	var buf [24]byte
	muted := th.Style(theme.Muted, 0)
	for _, b := range FormatElapsed(buf[:0], w.Elapsed) {
		put(rune(b), muted)
	}
	return n
}

// waveColour is the gradient at col/14 on the wave clock, or in high
// contrast the fire colour on the label's 2.4 s clock (period 1.2), as
// the reference's recolour pass does for the wave row.
func waveColour(col int, tau, labelT float64, th *theme.Theme) colour {
	p := float64(col) / waveLast
	if th.HighContrast() {
		return fireAt(p, labelT, LabelPeriod, th.Caps().RGB())
	}
	return gradientAt(p, tau, WavePeriod, th.Caps().RGB())
}

// labelColour is the gradient (fire in high contrast) at the middle.
func labelColour(labelT float64, th *theme.Theme) colour {
	if th.HighContrast() {
		return fireAt(0.5, labelT, LabelPeriod, th.Caps().RGB())
	}
	return gradientAt(0.5, labelT, LabelPeriod, th.Caps().RGB())
}

// FormatElapsed appends the elapsed time as "Ns" below a minute and
// "MmSSs" from then on (whole seconds, truncated), without allocating
// when dst has room.
func FormatElapsed(dst []byte, d time.Duration) []byte {
	total := max(int64(d/time.Second), 0)
	if total < 60 {
		return append(appendInt(dst, total), 's')
	}
	dst = append(appendInt(dst, total/60), 'm')
	sec := total % 60
	dst = append(dst, byte('0'+sec/10), byte('0'+sec%10))
	return append(dst, 's')
}

func appendInt(dst []byte, v int64) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(dst, tmp[i:]...)
}
