package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// chunk is a rendered block: its rows and the code blocks in them (with
// rows relative to the chunk).
type chunk struct {
	lines  []text.Line
	blocks []CodeBlock
}

// add appends o, moving its code blocks to their new rows.
func (c *chunk) add(o chunk) {
	for _, cb := range o.blocks {
		cb.StartLine += len(c.lines)
		cb.EndLine += len(c.lines)
		c.blocks = append(c.blocks, cb)
	}
	c.lines = append(c.lines, o.lines...)
}

// builder lays out the blocks of one parsed message.
type builder struct {
	source []byte // what goldmark parsed
	src    string // the same bytes, sliced for span text without copying
	g      glyphs
}

func newBuilder(source []byte, src string, o Options) *builder {
	return &builder{source: source, src: src, g: glyphsFor(o)}
}

// block renders one block node at width cells.
func (b *builder) block(n ast.Node, width int) chunk {
	switch n := n.(type) {
	case *ast.Heading:
		return b.heading(n, width)
	case *ast.Paragraph, *ast.TextBlock:
		return chunk{lines: text.Wrap(b.inlines(n, style{}), width)}
	case *ast.ThematicBreak:
		return chunk{lines: []text.Line{{{Text: strings.Repeat(b.g.rule, max(width/text.Width(b.g.rule), 1)), Token: theme.Separator}}}}
	case *ast.FencedCodeBlock:
		return b.code(string(n.Language(b.source)), n.Lines(), width)
	case *ast.CodeBlock:
		return b.code("", n.Lines(), width)
	case *ast.Blockquote:
		return b.quote(n, width)
	case *ast.List:
		return b.list(n, width)
	case *east.Table:
		return b.table(n, width)
	case *ast.HTMLBlock:
		return b.html(n, width)
	}
	// A block kind this renderer does not know: its children, if any.
	return b.children(n, width, false)
}

// children renders n's child blocks, a blank row between them unless the
// container is tight (a tight list item).
func (b *builder) children(n ast.Node, width int, tight bool) chunk {
	var out chunk
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() && !tight {
			out.lines = append(out.lines, text.Line{})
		}
		out.add(b.block(c, width))
	}
	return out
}

// heading: accent and bold; a level-one heading is also underlined, the
// terminal's only way to rank it above level two.
func (b *builder) heading(n *ast.Heading, width int) chunk {
	st := style{tok: theme.Accent, attr: text.Bold, tokSet: true}
	if n.Level == 1 {
		st.attr |= text.Underline
	}
	return chunk{lines: text.Wrap(b.inlines(n, st), width)}
}

func (b *builder) quote(n *ast.Blockquote, width int) chunk {
	bar := text.Span{Text: b.g.quote, Token: theme.Muted}
	inner := width - text.Width(bar.Text)
	if inner < 1 {
		return b.children(n, width, false)
	}
	c := b.children(n, inner, false)
	empty := text.Span{Text: strings.TrimRight(bar.Text, " "), Token: theme.Muted}
	for i, l := range c.lines {
		if len(l) == 0 {
			c.lines[i] = text.Line{empty}
			continue
		}
		c.lines[i] = prefixed(bar, l)
	}
	return c
}

// list: markers in accent, numbers right-aligned, item text hanging
// behind its marker.
func (b *builder) list(n *ast.List, width int) chunk {
	markers := b.markers(n)
	mw := 0
	for _, m := range markers {
		mw = max(mw, text.Width(m))
	}
	if width-mw < 1 {
		mw = 0
	}
	hang := text.Span{Text: strings.Repeat(" ", mw)}
	var out chunk
	i := 0
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		if i > 0 && !n.IsTight {
			out.lines = append(out.lines, text.Line{})
		}
		c := b.children(item, width-mw, n.IsTight)
		if len(c.lines) == 0 {
			c.lines = []text.Line{{}}
		}
		if mw > 0 {
			m := markers[i]
			mark := text.Span{Text: strings.Repeat(" ", mw-text.Width(m)) + m, Token: theme.Accent}
			for j, l := range c.lines {
				switch {
				case j == 0:
					c.lines[j] = prefixed(mark, l)
				case len(l) > 0:
					c.lines[j] = prefixed(hang, l)
				}
			}
		}
		out.add(c)
		i++
	}
	return out
}

func (b *builder) markers(n *ast.List) []string {
	var ms []string
	k := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		if n.IsOrdered() {
			ms = append(ms, strconv.Itoa(k)+string(n.Marker)+" ")
			k++
		} else {
			ms = append(ms, b.g.bullet)
		}
	}
	return ms
}

// html shows raw HTML as the text it is, muted: the terminal renders none.
func (b *builder) html(n *ast.HTMLBlock, width int) chunk {
	var out chunk
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		s := strings.TrimRight(termsafe.Text(string(seg.Value(b.source))), "\n")
		out.lines = append(out.lines, text.Wrap(text.Line{{Text: s, Token: theme.Muted}}, width)...)
	}
	if n.HasClosure() {
		s := strings.TrimRight(termsafe.Text(string(n.ClosureLine.Value(b.source))), "\n")
		out.lines = append(out.lines, text.Wrap(text.Line{{Text: s, Token: theme.Muted}}, width)...)
	}
	return out
}

// prefixed returns l behind p (a new line: cached rows are never changed
// in place).
func prefixed(p text.Span, l text.Line) text.Line {
	out := make(text.Line, 0, len(l)+1)
	return append(append(out, p), l...)
}
