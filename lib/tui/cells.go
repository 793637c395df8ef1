package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
	"github.com/rivo/uniseg"
	"unicode/utf8"
)

// line is one styled row before placement. Its text is already safe.
type line = text.Line

func span(s string, tok theme.Token) text.Span { return text.Span{Text: s, Token: tok} }

func bold(s string, tok theme.Token) text.Span {
	return text.Span{Text: s, Token: tok, Attr: text.Bold}
}

// painter writes styled text into the screen's cells; it is the only
// place that turns spans into cells, so clipping and width agree.
type painter struct {
	scr   tcell.Screen
	style func(theme.Token, theme.Attr) tcell.Style
	ascii bool
}

// put draws l at (x,y), clipped to w cells; it returns the cells used.
// It steps graphemes with uniseg.StepString and hands each cluster to
// Put as a substring, so painting allocates nothing per cell (SetContent
// builds a string from runes for every non-ASCII cell).
func (p painter) put(x, y, w int, l line) int {
	col := 0
	for _, sp := range l {
		st := p.style(sp.Token, sp.Attr)
		rest, state := sp.Text, -1
		for rest != "" {
			var cluster string
			var bounds int
			cluster, rest, bounds, state = uniseg.StepString(rest, state)
			cw := bounds >> uniseg.ShiftWidth
			r, _ := utf8.DecodeRuneInString(cluster)
			if r == '\t' {
				cluster, cw = " ", 1 // text.Wrap expands tabs; this is a last guard
			}
			if cw == 0 || r < 0x20 && r != '\t' {
				continue // never a control in a cell
			}
			if p.ascii && cw == 1 {
				if a, ok := asciiPunct[r]; ok {
					cluster = string(a) // the UI's own punctuation, cell for cell (ASCII: no allocation)
				}
			}
			if col+cw > w {
				return col
			}
			p.scr.Put(x+col, y, cluster, st)
			for k := 1; k < cw; k++ {
				p.scr.SetContent(x+col+k, y, ' ', nil, st)
			}
			col += cw
		}
	}
	return col
}

// fill paints w cells of r from (x,y).
func (p painter) fill(x, y, w int, r rune, tok theme.Token) {
	st := p.style(tok, 0)
	for i := 0; i < w; i++ {
		p.scr.SetContent(x+i, y, r, nil, st)
	}
}

// clear blanks a rectangle in the base style.
func (p painter) clear(x, y, w, h int) {
	for r := 0; r < h; r++ {
		p.fill(x, y+r, w, ' ', theme.Base)
	}
}

// glyph picks the Unicode or ASCII form of a symbol.
func (p painter) glyph(uni, ascii string) string {
	if p.ascii {
		return ascii
	}
	return uni
}

func cellWidth(s string) int { return text.Width(s) }

func lineWidth(l line) int { return text.LineWidth(l) }

// wrapLine soft-wraps l at width (word boundaries, then graphemes).
func wrapLine(l line, width int) []line {
	if width <= 0 {
		return []line{l}
	}
	out := text.Wrap(l, width)
	if len(out) == 0 {
		return []line{{}}
	}
	return out
}

func truncate(s string, w int, ellipsis string) string { return text.Truncate(s, w, ellipsis) }

// asciiPunct keeps --ascii frames ASCII where the UI's text uses
// typographic one-cell punctuation (separators, quotes, the ellipsis).
var asciiPunct = map[rune]rune{'·': '.', '•': '*', '…': '~', '“': '"', '”': '"', '─': '-', '◇': '*', '−': '-', '→': '>', '–': '-', '×': 'x'}
