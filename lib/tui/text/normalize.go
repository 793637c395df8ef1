package text

import (
	"strings"

	"github.com/rivo/uniseg"
)

// maxClusterWidth is the widest cluster uniseg reports (U+2E3B THREE-EM
// DASH). Lines at least this wide cannot hold a cluster too wide for them,
// so the check for one is skipped.
const maxClusterWidth = 4

// normalize returns l with every tab expanded to spaces, every control
// drawn as Replacement and every cluster wider than width drawn as
// Replacement, so what comes out of Wrap can be put into cells as is. It
// returns l itself (no allocation) when nothing needs changing, which is
// the common case.
func normalize(l Line, width int) Line {
	if !needsNormalize(l, width) {
		return l
	}
	out := make(Line, len(l))
	col := 0
	var b strings.Builder
	for i, sp := range l {
		out[i] = sp
		if !hasSpecial(sp.Text) && !hasTooWide(sp.Text, width) {
			col = advanceLine(col, sp.Text)
			continue
		}
		b.Reset()
		b.Grow(len(sp.Text) + 8)
		col = writeNormalized(&b, col, sp.Text, width)
		out[i].Text = b.String()
	}
	return out
}

func needsNormalize(l Line, width int) bool {
	for _, sp := range l {
		if hasSpecial(sp.Text) || hasTooWide(sp.Text, width) {
			return true
		}
	}
	return false
}

// hasTooWide reports whether s holds a cluster wider than width.
func hasTooWide(s string, width int) bool {
	if width >= maxClusterWidth || isPlainASCII(s) {
		return false
	}
	state := -1
	for len(s) > 0 {
		var w int
		_, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		if w > width {
			return true
		}
	}
	return false
}

// advanceLine is advance with newlines returning to column 0, for text
// that may span several visual lines.
func advanceLine(col int, s string) int {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		col, s = 0, s[i+1:]
	}
	if isPlainASCII(s) {
		return col + len(s)
	}
	return advance(col, s)
}

// writeNormalized writes s to b as it will be drawn from column col and
// returns the column reached.
func writeNormalized(b *strings.Builder, col int, s string, width int) int {
	state := -1
	for len(s) > 0 {
		var cluster string
		var w int
		cluster, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		switch {
		case cluster == "\n":
			b.WriteByte('\n')
			col = 0
		case cluster == "\t":
			n := TabWidth - col%TabWidth
			b.WriteString(tabSpaces[:n])
			col += n
		case isControl(cluster) || w > width:
			b.WriteString(Replacement)
			col++
		default:
			b.WriteString(cluster)
			col += w
		}
	}
	return col
}

// ExpandTabs returns l as drawn: tabs expanded to the next TabWidth stop
// and controls as Replacement. Code views that do not wrap use it.
func ExpandTabs(l Line) Line { return normalize(l, maxClusterWidth) }

var tabSpaces = strings.Repeat(" ", TabWidth)
