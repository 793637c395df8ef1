package notify

import (
	"fmt"

	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/rivo/uniseg"
)

// Clip makes s one sanitized line of at most maxBytes, cut at a grapheme
// boundary with an ellipsis when anything was cut: a notice references
// state, it never copies an unbounded result into the stack.
func Clip(s string, maxBytes int) string {
	s = termsafe.Line(s)
	if len(s) <= maxBytes {
		return s
	}
	room := maxBytes - len(text.Ellipsis)
	cut, rest := 0, s
	for rest != "" {
		c, r, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		if cut+len(c) > room {
			break
		}
		cut += len(c)
		rest = r
	}
	return s[:cut] + text.Ellipsis
}

// Line is a notice's text fitted into width cells, grapheme-safe, with
// its repeat count kept visible when the text is cut.
func Line(n Notice, width int, ellipsis string) string {
	suffix := ""
	if n.Count > 1 {
		suffix = fmt.Sprintf(" x%d", n.Count)
	}
	if sw := text.Width(suffix); sw < width {
		return text.Truncate(n.Text, width-sw, ellipsis) + suffix
	}
	return text.Truncate(n.Text, width, ellipsis)
}
