package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The three GitHub-flavoured additions the renderer draws — tables,
// strikethrough and task-list boxes — are parsed here into goldmark's
// extension node types (extension/ast, which does nothing at start-up)
// rather than through goldmark's extension package: that package also
// holds linkify, whose package-level URL patterns with {1,256} repeats
// took 2,049 allocations and a few milliseconds to compile at every
// fluzo-tui start, before the first frame, for a feature nobody asked for.

func newParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(),
			util.Prioritized(taskBoxParser{}, 0),
			util.Prioritized(strikeParser{}, 500),
		)...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(tableTransformer{}, 200),
		)...),
	)
}

// tableTransformer turns a paragraph whose second or later line is a
// delimiter row (cells of dashes, optionally colon-marked) into a table:
// the line before it is the header, the lines after it the rows. Lines
// before the header stay a paragraph.
type tableTransformer struct{}

func (tableTransformer) Transform(p *ast.Paragraph, reader gtext.Reader, pc parser.Context) {
	src := reader.Source()
	lines := p.Lines()
	for i := 1; i < lines.Len(); i++ {
		at := lines.At(i)
		align := delimiterRow(at.Value(src))
		if align == nil {
			continue
		}
		header := tableRow(lines.At(i-1), align, src, true)
		if header.ChildCount() != len(align) {
			return // GFM: the header must have as many cells as the delimiter row
		}
		t := east.NewTable()
		t.Alignments = align
		t.AppendChild(t, east.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			t.AppendChild(t, tableRow(lines.At(j), align, src, false))
		}
		parent := p.Parent()
		parent.InsertAfter(parent, p, t)
		if i == 1 {
			parent.RemoveChild(parent, p)
			return
		}
		lines.SetSliced(0, i-1)
		last := lines.At(i - 2)
		last.Stop = trimNewline(src, last)
		lines.Set(i-2, last)
		return
	}
}

func trimNewline(src []byte, s gtext.Segment) int {
	stop := s.Stop
	for stop > s.Start && (src[stop-1] == '\n' || src[stop-1] == '\r') {
		stop--
	}
	return stop
}

// delimiterRow reads a delimiter row's alignments, nil when line is not one.
func delimiterRow(line []byte) []east.Alignment {
	line = bytes.TrimSpace(line)
	if !bytes.Contains(line, []byte("-")) {
		return nil
	}
	piped := bytes.Contains(line, []byte("|"))
	line = bytes.TrimPrefix(line, []byte("|"))
	line = bytes.TrimSuffix(line, []byte("|"))
	var out []east.Alignment
	for _, cell := range bytes.Split(line, []byte("|")) {
		cell = bytes.TrimSpace(cell)
		left := bytes.HasPrefix(cell, []byte(":"))
		right := bytes.HasSuffix(cell, []byte(":"))
		dashes := bytes.TrimSuffix(bytes.TrimPrefix(cell, []byte(":")), []byte(":"))
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return nil
		}
		switch {
		case left && right:
			out = append(out, east.AlignCenter)
		case left:
			out = append(out, east.AlignLeft)
		case right:
			out = append(out, east.AlignRight)
		default:
			out = append(out, east.AlignNone)
		}
	}
	if !piped {
		// A lone run of dashes under a line is a setext heading or a rule,
		// never a one-column table without a single pipe.
		return nil
	}
	return out
}

// tableRow splits seg into cells at pipes not escaped by a backslash; a
// body row is cut or padded to the delimiter row's width, a header keeps
// what it has so the caller can refuse a mismatch.
func tableRow(seg gtext.Segment, align []east.Alignment, src []byte, header bool) *east.TableRow {
	row := east.NewTableRow(align)
	seg = seg.TrimLeftSpace(src)
	seg = seg.TrimRightSpace(src)
	start, stop := seg.Start, seg.Stop
	if start < stop && src[start] == '|' {
		start++
	}
	if stop > start && src[stop-1] == '|' && (stop-2 < start || src[stop-2] != '\\') {
		stop--
	}
	cellStart := start
	for k := start; k <= stop; k++ {
		if k < stop && (src[k] != '|' || (k > start && src[k-1] == '\\')) {
			continue
		}
		cell := east.NewTableCell()
		if n := row.ChildCount(); n < len(align) {
			cell.Alignment = align[n]
		}
		c := gtext.NewSegment(cellStart, k)
		c = c.TrimLeftSpace(src)
		cell.Lines().Append(c.TrimRightSpace(src))
		row.AppendChild(row, cell)
		cellStart = k + 1
	}
	if header {
		return row
	}
	return fitRow(row, align)
}

// fitRow cuts or pads a body row to the delimiter row's width.
func fitRow(row *east.TableRow, align []east.Alignment) *east.TableRow {
	for row.ChildCount() > len(align) {
		row.RemoveChild(row, row.LastChild())
	}
	for row.ChildCount() < len(align) {
		cell := east.NewTableCell()
		cell.Alignment = align[row.ChildCount()]
		row.AppendChild(row, cell)
	}
	return row
}

// strikeParser reads ~text~ and ~~text~~ through goldmark's delimiter
// machinery, as emphasis is read.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(parent ast.Node, block gtext.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, tildes{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

type tildes struct{}

func (tildes) IsDelimiter(b byte) bool { return b == '~' }

func (tildes) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char && opener.OriginalLength == closer.OriginalLength
}

func (tildes) OnMatch(consumes int) ast.Node { return east.NewStrikethrough() }

// taskBoxParser reads "[ ]" or "[x]" followed by a space at the very
// start of a list item's first paragraph.
type taskBoxParser struct{}

func (taskBoxParser) Trigger() []byte { return []byte{'['} }

func (taskBoxParser) Parse(parent ast.Node, block gtext.Reader, pc parser.Context) ast.Node {
	if parent.HasChildren() || parent.Parent() == nil || parent.Parent().Kind() != ast.KindListItem ||
		parent.Parent().FirstChild() != parent {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 4 || line[0] != '[' || line[2] != ']' || (line[3] != ' ' && line[3] != '\t') {
		return nil
	}
	var checked bool
	switch line[1] {
	case ' ':
	case 'x', 'X':
		checked = true
	default:
		return nil
	}
	n := 4 // the box and the blank after it, which the renderer draws itself
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(checked)
}
