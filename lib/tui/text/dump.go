package text

import (
	"strconv"
	"strings"
)

// Dump writes lines as goldens and test failures show them: each row's
// text as drawn (between bars, so trailing spaces show), then its spans
// as token, attributes and quoted text. Styles are part of what a view
// promises (a failure in the error token, code on the panel), so goldens
// record them, not only the text.
func Dump(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteByte('|')
		for _, sp := range l {
			b.WriteString(sp.Text)
		}
		b.WriteString("|\n")
		b.WriteString("  ~")
		for _, sp := range l {
			b.WriteByte(' ')
			b.WriteString(sp.Token.String())
			b.WriteString(attrNames(sp.Attr))
			b.WriteByte(' ')
			b.WriteString(strconv.Quote(sp.Text))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// DumpText is Dump without the style rows.
func DumpText(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		for _, sp := range l {
			b.WriteString(sp.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func attrNames(a Attr) string {
	if a == 0 {
		return ""
	}
	var b strings.Builder
	for _, n := range []struct {
		a    Attr
		name string
	}{{Bold, "bold"}, {Italic, "italic"}, {Underline, "underline"}, {Reverse, "reverse"}, {Dim, "dim"}} {
		if a&n.a != 0 {
			b.WriteByte('+')
			b.WriteString(n.name)
		}
	}
	return b.String()
}
