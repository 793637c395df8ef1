package theme

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// DescribeStyle renders a style as stable text for golden files and test
// failures: "fg=#30E0E0 bg=ansi8 bold underline". Colours are spelled as
// #RRGGBB for RGB, ansiN for palette entries and "default" for none.
func DescribeStyle(s tcell.Style) string {
	fg, bg, attrs := s.Decompose()
	var b strings.Builder
	b.WriteString("fg=")
	b.WriteString(describeColour(fg))
	b.WriteString(" bg=")
	b.WriteString(describeColour(bg))
	for _, a := range [...]struct {
		mask tcell.AttrMask
		name string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrItalic, "italic"}, {tcell.AttrReverse, "reverse"}, {tcell.AttrDim, "dim"}} {
		if attrs&a.mask != 0 {
			b.WriteString(" " + a.name)
		}
	}
	if s.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		b.WriteString(" underline")
	}
	return b.String()
}

func describeColour(c tcell.Color) string {
	switch {
	case c == tcell.ColorDefault:
		return "default"
	case c.IsRGB():
		return fmt.Sprintf("#%06X", c.Hex())
	default:
		return fmt.Sprintf("ansi%d", c-tcell.ColorValid)
	}
}
