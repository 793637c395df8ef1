// Package markdown renders assistant Markdown into styled lines wrapped to
// a width, in theme tokens only (never a colour): headings in accent,
// bullets and numbers in accent with a hanging indent, block quotes behind
// a muted bar, inline code in the warning token, fenced code highlighted
// by chroma onto the Syn* tokens on the panel, links as their text followed
// by the URL in muted (never an OSC 8 hyperlink).
//
// Every piece of text taken from the source reaches a span through
// lib/termsafe after parsing — after, because goldmark decodes character
// references such as &#x1b; into the very characters the sanitizer exists
// to stop.
package markdown

import (
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"

	"github.com/josecorral/fluzo/lib/tui/text"
)

// Options select the rendering's glyphs.
type Options struct {
	// ASCII draws bullets as "* ", quote bars as "| ", rules with "-" and
	// table borders with "|", "-" and "+".
	ASCII bool
}

// CodeBlock is a code block found in the message, for copying the focused
// block: its rows in Result.Lines and its text.
type CodeBlock struct {
	StartLine int    // first row of the block in Result.Lines
	EndLine   int    // one past its last row
	Lang      string // the info string's language, "" when none was given
	Code      string // the block's text as shown (sanitized), without fences
}

// Result is a rendered message.
type Result struct {
	Lines  []text.Line // rows, each at most the width asked for
	Blocks []CodeBlock // code blocks in order of appearance
}

// Render renders src at width cells. To re-render a message that grows
// (streamed deltas), keep a Renderer instead: it reuses the unchanged
// blocks.
//
// src is the message as the model wrote it, raw: Render sanitizes every
// piece itself. Text already passed through termsafe would be escaped a
// second time ("\x1b" shown as "\x5cx1b"), so keep the raw text for
// rendering and sanitize only what is copied or printed elsewhere.
func Render(src string, width int, opts Options) Result {
	r := Renderer{Options: opts}
	return r.Render(src, width)
}

var mdParser = sync.OnceValue(newParser)

func parse(source []byte) (ast.Node, parser.Context) {
	ctx := parser.NewContext()
	doc := mdParser().Parse(gtext.NewReader(source), parser.WithContext(ctx))
	return doc, ctx
}
