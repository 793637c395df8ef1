package text

import "github.com/rivo/uniseg"

// HardWrap cuts a logical line into rows of exactly width cells (the last
// may be shorter) at grapheme-cluster boundaries, ignoring word breaks and
// keeping every space: for code, where moving or dropping whitespace would
// misrepresent the text. Tabs, controls and too-wide clusters are handled
// as in Wrap; a newline forces a break. A width below 1 is treated as 1.
func HardWrap(l Line, width int) []Line {
	if width < 1 {
		width = 1
	}
	l = normalize(l, width)
	if fitsOnOneLine(l, width) {
		return []Line{l}
	}
	var out []Line
	var row Line
	col := 0
	flush := func() {
		out = append(out, row)
		row, col = nil, 0
	}
	for _, sp := range l {
		rest, state := sp.Text, -1
		start := 0 // byte offset in sp.Text where the pending piece begins
		pos := 0
		for len(rest) > 0 {
			var cluster string
			var cw int
			cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
			if cluster == "\n" || col+cw > width {
				row = appendPiece(row, sp, sp.Text[start:pos])
				flush()
				start = pos
				if cluster == "\n" {
					start = pos + 1
					pos++
					continue
				}
			}
			col += cw
			pos += len(cluster)
		}
		row = appendPiece(row, sp, sp.Text[start:pos])
	}
	return append(out, row)
}

func appendPiece(row Line, sp Span, piece string) Line {
	if piece == "" {
		return row
	}
	sp.Text = piece
	return append(row, sp)
}
