package text

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Ellipsis marks cut text; ASCIIEllipsis replaces it in ASCII mode.
const (
	Ellipsis      = "…"
	ASCIIEllipsis = "..."
)

// Truncate fits s into width cells, cutting at a grapheme boundary and
// ending with ellipsis when anything was cut (spaces before the ellipsis
// are dropped). s is measured and returned as drawn: tabs expanded,
// controls as Replacement. When even the ellipsis does not fit, it is
// itself cut to width; a cut that would leave nothing visible of a
// non-empty s without an ellipsis yields Replacement, so the cell shows
// that something is there.
func Truncate(s string, width int, ellipsis string) string {
	if width <= 0 {
		return ""
	}
	if isPlainASCII(s) && len(s) <= width {
		return s
	}
	s = normalizeString(s)
	if Width(s) <= width {
		return s
	}
	ew := Width(ellipsis)
	if ew > width {
		return Truncate(ellipsis, width, "")
	}
	cut := prefixFitting(s, width-ew)
	kept := strings.TrimRight(s[:cut], " ")
	if kept == "" && ellipsis == "" {
		return Replacement
	}
	return kept + ellipsis
}

// TruncateLine is Truncate for a styled line: it keeps whole spans while
// they fit, cuts the first one that does not, and gives the ellipsis the
// style of the last text kept.
func TruncateLine(l Line, width int, ellipsis string) Line {
	if width <= 0 {
		return nil
	}
	l = oneLine(ExpandTabs(l))
	if LineWidth(l) <= width {
		return l
	}
	ew := Width(ellipsis)
	if ew > width {
		ellipsis, ew = Truncate(ellipsis, width, ""), width
	}
	room := width - ew
	out := make(Line, 0, len(l)+1)
	for _, sp := range l {
		sw := Width(sp.Text)
		if sw > room {
			sp.Text = strings.TrimRight(sp.Text[:prefixFitting(sp.Text, room)], " ")
			out = appendNonEmpty(out, sp)
			break
		}
		out = append(out, sp)
		room -= sw
	}
	tail := Span{Text: ellipsis}
	if n := len(out); n > 0 {
		tail.Token, tail.Attr = out[n-1].Token, out[n-1].Attr
	} else if len(l) > 0 {
		tail.Token, tail.Attr = l[0].Token, l[0].Attr
	}
	return appendNonEmpty(out, tail)
}

func appendNonEmpty(l Line, sp Span) Line {
	if sp.Text == "" {
		return l
	}
	return append(l, sp)
}

// prefixFitting returns the byte length of the longest prefix of s (already
// normalized) that fits in width cells.
func prefixFitting(s string, width int) int {
	if isPlainASCII(s) {
		return min(len(s), max(width, 0))
	}
	col, pos, state := 0, 0, -1
	for rest := s; len(rest) > 0; {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if col+w > width {
			break
		}
		col += w
		pos += len(cluster)
	}
	return pos
}

// normalizeString is normalize for one unstyled string from column 0,
// with a newline drawn as Replacement: truncated text is one row.
func normalizeString(s string) string {
	if hasSpecial(s) {
		var b strings.Builder
		b.Grow(len(s) + 8)
		writeNormalized(&b, 0, s, maxClusterWidth)
		s = b.String()
	}
	return strings.ReplaceAll(s, "\n", Replacement)
}

// oneLine draws newlines in l as Replacement, copying only if there is one.
func oneLine(l Line) Line {
	var out Line
	for i, sp := range l {
		if strings.IndexByte(sp.Text, '\n') < 0 {
			continue
		}
		if out == nil {
			out = append(Line(nil), l...)
		}
		out[i].Text = strings.ReplaceAll(sp.Text, "\n", Replacement)
	}
	if out == nil {
		return l
	}
	return out
}
