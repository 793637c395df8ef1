package text

import "github.com/rivo/uniseg"

// WrapOutput cuts a logical line of tool output into rows of at most width
// cells. Unlike Wrap it keeps every character, spaces included, so rows
// joined back give the line as drawn (indentation and alignment survive);
// unlike HardWrap it breaks an overlong row after its last space, so words
// are not split across rows. A word longer than the row is cut at a
// grapheme boundary. Tabs, controls, too-wide clusters and newlines are
// handled as in HardWrap. A width below 1 is treated as 1.
func WrapOutput(l Line, width int) []Line {
	if width < 1 {
		width = 1
	}
	l = normalize(l, width)
	if fitsOnOneLine(l, width) {
		return []Line{l}
	}
	cs := outputClusters(l)
	var out []Line
	start, col, lastSpace := 0, 0, -1
	for i := 0; i < len(cs); i++ {
		c := cs[i]
		if c.newline {
			out = append(out, clusterRow(l, cs[start:i]))
			start, col, lastSpace = i+1, 0, -1
			continue
		}
		if col+c.width > width {
			end := i
			if lastSpace >= start {
				end = lastSpace + 1 // the space ends its row
			}
			out = append(out, clusterRow(l, cs[start:end]))
			start, col, lastSpace = end, 0, -1
			for _, k := range cs[start:i] {
				col += k.width
			}
			if col+c.width > width { // the carried word and c still overflow
				out = append(out, clusterRow(l, cs[start:i]))
				start, col = i, 0
			}
		}
		if c.space {
			lastSpace = i
		}
		col += c.width
	}
	return append(out, clusterRow(l, cs[start:]))
}

// outputCluster is one grapheme of a line: where it sits and how wide it is.
type outputCluster struct {
	span, from, to int
	width          int
	space, newline bool
}

func outputClusters(l Line) []outputCluster {
	var cs []outputCluster
	for si, sp := range l {
		rest, state, pos := sp.Text, -1, 0
		for len(rest) > 0 {
			var cluster string
			var cw int
			cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
			cs = append(cs, outputCluster{span: si, from: pos, to: pos + len(cluster), width: cw,
				space: cluster == " ", newline: cluster == "\n"})
			pos += len(cluster)
		}
	}
	return cs
}

// clusterRow rebuilds the spans covering a run of clusters.
func clusterRow(l Line, cs []outputCluster) Line {
	var row Line
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1].span == cs[i].span && !cs[j+1].newline {
			j++
		}
		sp := l[cs[i].span]
		row = appendPiece(row, sp, sp.Text[cs[i].from:cs[j].to])
		i = j + 1
	}
	return row
}
