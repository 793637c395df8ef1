package diffview

import (
	"strings"

	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tui/markdown"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Rows styles a window of unified-diff lines: hunk headers as headings,
// the +/− sign in the addition or deletion colour (the sign itself is the
// signal, colour only repeats it), and the code after it highlighted in
// the file's language by the fenced-code lexers. File text is made safe
// for the terminal before it is styled.
func Rows(lines []string, lang string) []text.Line {
	code := make([]string, 0, len(lines))
	for _, l := range lines {
		if isCode(l) {
			code = append(code, termsafe.Line(strings.ReplaceAll(l[1:], "\t", "    ")))
		}
	}
	hl := markdown.HighlightSource(lang, strings.Join(code, "\n"))
	if len(hl) != len(code) {
		hl = nil // the lexer's rows do not match the lines: show them plain
	}
	out := make([]text.Line, 0, len(lines))
	k := 0
	for _, l := range lines {
		if !isCode(l) {
			out = append(out, metaRow(l))
			continue
		}
		sign, tok := signOf(l[0])
		row := text.Line{{Text: sign, Token: tok, Attr: text.Bold}}
		if hl != nil {
			row = append(row, hl[k]...)
		} else if c := code[k]; c != "" {
			row = append(row, text.Span{Text: c, Token: theme.Panel})
		}
		k++
		out = append(out, row)
	}
	return out
}

// isCode: an added, removed or context line.
func isCode(l string) bool { return l != "" && (l[0] == '+' || l[0] == '-' || l[0] == ' ') }

func signOf(c byte) (string, theme.Token) {
	switch c {
	case '+':
		return "+", theme.Success
	case '-':
		return "-", theme.Error
	}
	return " ", theme.Muted
}

// metaRow is a hunk header, git's "\ No newline at end of file", or an
// empty context line git printed without its space.
func metaRow(l string) text.Line {
	switch {
	case strings.HasPrefix(l, "@@"):
		return text.Line{{Text: termsafe.Line(l), Token: theme.Accent, Attr: text.Bold}}
	case l == "":
		return text.Line{{Text: " ", Token: theme.Muted}}
	}
	return text.Line{{Text: termsafe.Line(l), Token: theme.Subtle}}
}
