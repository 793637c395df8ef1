package markdown

import (
	"strings"

	gtext "github.com/yuin/goldmark/text"

	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// codeMargin is the indent of code rows. It sets code apart even where the
// panel has no background (NO_COLOR, 16 colours), and holds the
// continuation mark of a wrapped row.
const codeMargin = 2

// code renders a code block on the panel. Long rows are hard-wrapped at
// the width (cut between grapheme clusters, whitespace kept) and each
// continued row carries a mark in the margin, rather than truncated: the
// reader sees all of the code, and the mark says the row is one line of
// source. Rows are padded to the width so the panel is a solid box. The
// exact text is kept in the block for copying.
func (b *builder) code(lang string, lines *gtext.Segments, width int) chunk {
	var src strings.Builder
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		src.Write(seg.Value(b.source))
	}
	code := strings.TrimSuffix(termsafe.Text(src.String()), "\n")
	lang = termsafe.Line(lang)

	margin, cont := b.codeMargins(width)
	inner := width - text.Width(margin)
	var out chunk
	for _, l := range highlightCached(lang, code) {
		for j, row := range text.HardWrap(l, inner) {
			lead := margin
			if j > 0 {
				lead = cont
			}
			out.lines = append(out.lines, panelRow(lead, row, width))
		}
	}
	out.blocks = []CodeBlock{{StartLine: 0, EndLine: len(out.lines), Lang: lang, Code: code}}
	return out
}

// codeMargins returns the margin of a first row and of a continued row,
// both the same width; narrow views get no margin at all.
func (b *builder) codeMargins(width int) (first, cont string) {
	if width <= codeMargin+1 {
		return "", ""
	}
	first = strings.Repeat(" ", codeMargin)
	mark := b.g.cont + " "
	if text.Width(mark) > codeMargin {
		mark = b.g.cont // a wide continuation glyph (RUNEWIDTH_EASTASIAN)
	}
	if text.Width(mark) != codeMargin {
		mark = ">" + strings.Repeat(" ", codeMargin-1)
	}
	return first, mark
}

// panelRow is one code row: the lead in the margin, the code, spaces to
// the width, all on the panel.
func panelRow(lead string, row text.Line, width int) text.Line {
	out := make(text.Line, 0, len(row)+2)
	if lead != "" {
		out = append(out, text.Span{Text: lead, Token: theme.Panel})
	}
	out = append(out, row...)
	if pad := width - text.LineWidth(out); pad > 0 {
		out = append(out, text.Span{Text: strings.Repeat(" ", pad), Token: theme.Panel})
	}
	return out
}
