package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"

	"github.com/josecorral/fluzo/lib/tui/text"
)

// Renderer renders successive versions of one message. The app appends
// streamed deltas to the last assistant message and re-renders it on each;
// parsing the whole message is cheap, laying it out (wrapping, syntax
// highlighting) is not, so the Renderer keeps each top-level block's rows
// and reuses them while the block's source is unchanged. Only the block
// being streamed into is laid out again.
//
// The Lines of a Result share rows with earlier Results: treat them as
// read-only. A Renderer is not safe for concurrent use.
type Renderer struct {
	Options Options

	width int
	opts  Options
	refs  string
	prev  []cachedBlock
}

type cachedBlock struct {
	key   string
	chunk chunk
}

// Render renders src at width cells (see Render).
func (r *Renderer) Render(src string, width int) Result {
	if width < 1 {
		width = 1
	}
	// CRLF is a line ending to Markdown; left in, code rows would show
	// every CR escaped. A lone CR stays and is escaped like any control.
	src = strings.ReplaceAll(src, "\r\n", "\n")
	source := []byte(src)
	doc, ctx := parse(source)
	if refs := referenceSignature(ctx); refs != r.refs || width != r.width || r.Options != r.opts {
		// Reference definitions can change how any earlier paragraph
		// renders ([x] becomes a link), and the width changes every row.
		r.prev, r.refs, r.width, r.opts = nil, refs, width, r.Options
	}
	b := newBuilder(source, src, r.Options)
	var blocks []ast.Node
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		blocks = append(blocks, n)
	}
	ranges := blockRanges(blocks, len(src))
	next := make([]cachedBlock, 0, len(blocks))
	var out chunk
	for i, n := range blocks {
		key := blockKey(n, b.source, src[ranges[i][0]:ranges[i][1]])
		var c chunk
		if i < len(r.prev) && r.prev[i].key == key {
			c = r.prev[i].chunk
		} else {
			c = compact(b.block(n, width))
		}
		next = append(next, cachedBlock{key: key, chunk: c})
		if i > 0 {
			out.lines = append(out.lines, text.Line{})
		}
		out.add(c)
	}
	r.prev = next
	return Result{Lines: out.lines, Blocks: out.blocks}
}

// blockRanges tiles the source between the top-level blocks: block i owns
// [ends[i-1], ends[i]), where ends[i] is the last byte of any segment in
// it (the last block owns the rest). Its markers, fence info and text all
// fall in its range, so a block whose range and kind are unchanged
// renders the same; a block without segments (a rule, an empty fence)
// owns an empty range and is keyed by its kind and attributes.
func blockRanges(blocks []ast.Node, size int) [][2]int {
	ranges := make([][2]int, len(blocks))
	prev := 0
	for i, n := range blocks {
		end := max(lastOffset(n), prev)
		if i == len(blocks)-1 {
			end = size
		}
		ranges[i] = [2]int{prev, end}
		prev = end
	}
	return ranges
}

// lastOffset is the largest source offset that ends a segment under n, or
// -1 when it has none.
func lastOffset(n ast.Node) int {
	best := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if c.Type() == ast.TypeBlock {
			if l := c.Lines(); l.Len() > 0 {
				best = max(best, l.At(l.Len()-1).Stop)
			}
		} else if t, ok := c.(*ast.Text); ok {
			best = max(best, t.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	return best
}

// blockKey identifies a top-level block's rendering: its source range and
// the shape of its tree — every node's kind and the attributes that are
// not plain text in the range (list numbering and looseness, heading
// level, fence info, table alignment, link targets, task boxes). Appended
// text never changes bytes already parsed, only how they are grouped; a
// regrouping changes the range or the tree, and so the key.
func blockKey(n ast.Node, doc []byte, source string) string {
	var b strings.Builder
	b.Grow(len(source) + 64)
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			b.WriteByte(')')
			return ast.WalkContinue, nil
		}
		b.WriteString(c.Kind().String())
		writeAttrs(&b, c, doc)
		b.WriteByte('(')
		return ast.WalkContinue, nil
	})
	b.WriteByte(0)
	b.WriteString(source)
	return b.String()
}

func writeAttrs(b *strings.Builder, n ast.Node, doc []byte) {
	switch n := n.(type) {
	case *ast.List:
		b.WriteString(":" + strconv.Itoa(n.Start) + string(n.Marker) + strconv.FormatBool(n.IsTight))
	case *ast.Heading:
		b.WriteString(":" + strconv.Itoa(n.Level))
	case *ast.Emphasis:
		b.WriteString(":" + strconv.Itoa(n.Level))
	case *ast.FencedCodeBlock:
		if n.Info != nil {
			b.WriteString(":")
			b.Write(n.Info.Segment.Value(doc))
		}
	case *ast.Link:
		b.WriteString(":")
		b.Write(n.Destination)
	case *ast.Image:
		b.WriteString(":")
		b.Write(n.Destination)
	case *ast.AutoLink:
		b.WriteString(":")
		b.Write(n.Label(doc))
	case *east.Table:
		for _, a := range n.Alignments {
			b.WriteString(":" + a.String())
		}
	case *east.TaskCheckBox:
		b.WriteString(":" + strconv.FormatBool(n.IsChecked))
	}
}

func referenceSignature(ctx parser.Context) string {
	refs := ctx.References()
	if len(refs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, r := range refs {
		b.Write(r.Label())
		b.WriteByte(0)
		b.Write(r.Destination())
		b.WriteByte(0)
		b.Write(r.Title())
		b.WriteByte(0)
	}
	return b.String()
}

// compact gives a chunk's rows their own copy of their text. Spans out of
// the wrapper share the message string they were cut from, and a streamed
// message is a new string after every delta: a cached block would keep
// the whole message as it was when the block was laid out alive, and a
// long message, all its versions. One copy per block when it is laid out
// keeps what is cached proportional to what is shown.
func compact(c chunk) chunk {
	n, spans := 0, 0
	for _, l := range c.lines {
		spans += len(l)
		for _, sp := range l {
			n += len(sp.Text)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, l := range c.lines {
		for _, sp := range l {
			b.WriteString(sp.Text)
		}
	}
	all := b.String()
	pool := make([]text.Span, 0, spans)
	lines := make([]text.Line, len(c.lines))
	off := 0
	for i, l := range c.lines {
		start := len(pool)
		for _, sp := range l {
			sp.Text = all[off : off+len(sp.Text)]
			off += len(sp.Text)
			pool = append(pool, sp)
		}
		lines[i] = pool[start:len(pool):len(pool)]
	}
	return chunk{lines: lines, blocks: c.blocks}
}
