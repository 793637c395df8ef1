package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// style is the token and attributes inherited down the inline tree.
// tokSet marks a token chosen by an enclosing element (a heading), which
// plain text keeps; inline code and link URLs still use their own.
type style struct {
	tok    theme.Token
	attr   text.Attr
	tokSet bool
}

// inlines renders n's inline children as one logical line (soft breaks
// are spaces, hard breaks newlines), ready for text.Wrap.
func (b *builder) inlines(n ast.Node, st style) text.Line {
	var l text.Line
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		l = b.inline(l, c, st)
	}
	return l
}

func (b *builder) inline(l text.Line, n ast.Node, st style) text.Line {
	switch n := n.(type) {
	case *ast.Text:
		l = appendText(l, b.displayText(n), st)
		switch {
		case n.HardLineBreak():
			l = appendText(l, "\n", st)
		case n.SoftLineBreak():
			l = appendText(l, " ", st)
		}
		return l
	case *ast.String:
		return appendText(l, termsafe.Text(string(n.Value)), st)
	case *ast.CodeSpan:
		code := style{tok: theme.Warning, attr: st.attr, tokSet: true}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				l = appendText(l, strings.ReplaceAll(b.segmentText(t), "\n", " "), code)
			} else if s, ok := c.(*ast.String); ok {
				l = appendText(l, termsafe.Text(string(s.Value)), code)
			}
		}
		return l
	case *ast.Emphasis:
		inner := st
		if n.Level >= 2 {
			inner.attr |= text.Bold
		} else {
			inner.attr |= text.Italic
		}
		return b.inlineChildren(l, n, inner)
	case *east.Strikethrough:
		// No strike-through attribute exists in every terminal; dim says
		// "struck" without hiding the text.
		inner := st
		inner.attr |= text.Dim
		return b.inlineChildren(l, n, inner)
	case *ast.Link:
		return b.link(l, n, st)
	case *ast.AutoLink:
		label := termsafe.Line(string(n.Label(b.source)))
		return appendText(l, label, style{tok: st.tok, attr: st.attr | text.Underline, tokSet: st.tokSet})
	case *ast.Image:
		alt := b.inlineChildren(nil, n, style{tok: theme.Muted, attr: st.attr, tokSet: true})
		l = appendText(l, "[image: ", style{tok: theme.Muted, tokSet: true})
		l = append(l, alt...)
		l = appendText(l, "]", style{tok: theme.Muted, tokSet: true})
		return appendURL(l, string(n.Destination))
	case *ast.RawHTML:
		segs := n.Segments
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			l = appendText(l, termsafe.Text(string(seg.Value(b.source))), style{tok: theme.Muted, attr: st.attr, tokSet: true})
		}
		return l
	case *east.TaskCheckBox:
		if n.IsChecked {
			return appendText(l, "[x] ", style{tok: theme.Success, tokSet: true})
		}
		return appendText(l, "[ ] ", style{tok: theme.Muted, tokSet: true})
	}
	return b.inlineChildren(l, n, st)
}

func (b *builder) inlineChildren(l text.Line, n ast.Node, st style) text.Line {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		l = b.inline(l, c, st)
	}
	return l
}

// link: the text underlined, then the destination in muted — a URL the
// person can read and copy, never an OSC 8 hyperlink whose target the
// terminal hides. A destination equal to the text is not repeated.
func (b *builder) link(l text.Line, n *ast.Link, st style) text.Line {
	inner := st
	inner.attr |= text.Underline
	label := b.inlineChildren(nil, n, inner)
	l = append(l, label...)
	dest := string(n.Destination)
	if dest == "" || dest == plainText(label) {
		return l
	}
	return appendURL(l, dest)
}

func appendURL(l text.Line, dest string) text.Line {
	return appendText(l, " ("+termsafe.Line(dest)+")", style{tok: theme.Muted, tokSet: true})
}

// segmentText returns a text node's source, sanitized: literal, as inside
// a code span. The common case (no tab padding) slices the message
// string, so no copy is made unless the sanitizer has something to escape.
func (b *builder) segmentText(t *ast.Text) string {
	seg := t.Segment
	if seg.Padding == 0 {
		return termsafe.Text(b.src[seg.Start:seg.Stop])
	}
	return termsafe.Text(string(seg.Value(b.source)))
}

// displayText is a text node as prose shows it: backslash escapes removed
// and character references (&amp;, &#x2192;) decoded — goldmark leaves
// both to its HTML writer — and only then sanitized, since a reference can
// name a control or bidi character.
func (b *builder) displayText(t *ast.Text) string {
	seg := t.Segment
	raw := b.src[seg.Start:seg.Stop]
	if seg.Padding != 0 || strings.ContainsAny(raw, "\\&") {
		v := seg.Value(b.source)
		v = util.UnescapePunctuations(v)
		v = util.ResolveNumericReferences(v)
		v = util.ResolveEntityNames(v)
		return termsafe.Text(string(v))
	}
	return termsafe.Text(raw)
}

// appendText adds s in st.
func appendText(l text.Line, s string, st style) text.Line {
	if s == "" {
		return l
	}
	tok := st.tok
	if !st.tokSet {
		tok = theme.Base
	}
	return append(l, text.Span{Text: s, Token: tok, Attr: st.attr})
}

func plainText(l text.Line) string {
	var b strings.Builder
	for _, sp := range l {
		b.WriteString(sp.Text)
	}
	return b.String()
}
