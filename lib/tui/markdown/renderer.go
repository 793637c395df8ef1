package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
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
	starts := blockStarts(blocks)
	next := make([]cachedBlock, 0, len(blocks))
	var out chunk
	for i, n := range blocks {
		end := len(src)
		if i+1 < len(blocks) {
			end = starts[i+1]
		}
		key := blockKey(n, src[starts[i]:end])
		var c chunk
		if i < len(r.prev) && r.prev[i].key == key {
			c = r.prev[i].chunk
		} else {
			c = b.block(n, width)
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

// blockStarts gives each top-level block the first source offset of any
// segment in it (a thematic break has none and inherits the previous
// start), so block i's source is [starts[i], starts[i+1]).
func blockStarts(blocks []ast.Node) []int {
	starts := make([]int, len(blocks))
	prev := 0
	for i, n := range blocks {
		s := firstOffset(n)
		if s < prev {
			s = prev
		}
		starts[i], prev = s, s
	}
	if len(starts) > 0 {
		starts[0] = 0
	}
	return starts
}

// firstOffset is the smallest source offset of a segment under n, or -1.
func firstOffset(n ast.Node) int {
	best := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		off := -1
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			off = c.Lines().At(0).Start
		} else if t, ok := c.(*ast.Text); ok {
			off = t.Segment.Start
		}
		if off >= 0 && (best < 0 || off < best) {
			best = off
		}
		return ast.WalkContinue, nil
	})
	return best
}

// blockKey identifies a top-level block's rendering: its kind, the
// attributes that live outside its source range (a list's numbering and
// looseness, a heading's level) and its source text.
func blockKey(n ast.Node, source string) string {
	var b strings.Builder
	b.Grow(len(source) + 24)
	b.WriteString(n.Kind().String())
	switch n := n.(type) {
	case *ast.List:
		b.WriteString(":" + strconv.Itoa(n.Start) + string(n.Marker) + strconv.FormatBool(n.IsTight))
	case *ast.Heading:
		b.WriteString(":" + strconv.Itoa(n.Level))
	}
	b.WriteByte('\x00')
	b.WriteString(source)
	return b.String()
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
