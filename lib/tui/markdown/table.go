package markdown

import (
	"strings"

	east "github.com/yuin/goldmark/extension/ast"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// table renders a GFM table as aligned columns (header bold, a rule under
// it, columns in separator-coloured bars) when it fits the width. When it
// does not, each row becomes one wrapped line of its cells joined by the
// bar: nothing is cut, at the cost of alignment — a table too wide for
// the terminal cannot be both whole and aligned.
func (b *builder) table(n *east.Table, width int) chunk {
	var rows [][]text.Line
	header := 0
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		st := style{}
		if _, ok := r.(*east.TableHeader); ok {
			st.attr = text.Bold
			header++
		}
		var cells []text.Line
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, oneRow(b.inlines(c, st)))
		}
		rows = append(rows, cells)
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], text.LineWidth(c))
		}
	}
	total := text.Width(b.g.colSep) * max(cols-1, 0)
	for _, w := range widths {
		total += w
	}
	if total > width {
		return b.tableRows(rows, width)
	}
	var out chunk
	for i, r := range rows {
		out.lines = append(out.lines, b.alignedRow(r, widths, n.Alignments))
		if i == header-1 {
			out.lines = append(out.lines, b.headerRule(widths))
		}
	}
	return out
}

func (b *builder) alignedRow(cells []text.Line, widths []int, align []east.Alignment) text.Line {
	var l text.Line
	for i, w := range widths {
		if i > 0 {
			l = append(l, text.Span{Text: b.g.colSep, Token: theme.Separator})
		}
		var c text.Line
		if i < len(cells) {
			c = cells[i]
		}
		pad := w - text.LineWidth(c)
		left := 0
		if i < len(align) {
			switch align[i] {
			case east.AlignRight:
				left = pad
			case east.AlignCenter:
				left = pad / 2
			}
		}
		l = appendSpaces(l, left)
		l = append(l, c...)
		if i < len(widths)-1 {
			l = appendSpaces(l, pad-left)
		}
	}
	return l
}

func (b *builder) headerRule(widths []int) text.Line {
	var s strings.Builder
	for i, w := range widths {
		if i > 0 {
			s.WriteString(b.g.colCross)
		}
		s.WriteString(strings.Repeat(b.g.colRule, w/max(text.Width(b.g.colRule), 1)))
	}
	return text.Line{{Text: s.String(), Token: theme.Separator}}
}

// tableRows is the fallback for a table wider than the view.
func (b *builder) tableRows(rows [][]text.Line, width int) chunk {
	var out chunk
	for _, r := range rows {
		var l text.Line
		for i, c := range r {
			if i > 0 {
				l = append(l, text.Span{Text: b.g.colSep, Token: theme.Separator})
			}
			l = append(l, c...)
		}
		out.lines = append(out.lines, text.Wrap(l, width)...)
	}
	return out
}

// oneRow turns hard breaks inside a cell into spaces: a cell is one row.
func oneRow(l text.Line) text.Line {
	for i, sp := range l {
		if strings.IndexByte(sp.Text, '\n') >= 0 {
			l[i].Text = strings.ReplaceAll(sp.Text, "\n", " ")
		}
	}
	return l
}

func appendSpaces(l text.Line, n int) text.Line {
	if n <= 0 {
		return l
	}
	return append(l, text.Span{Text: strings.Repeat(" ", n)})
}
