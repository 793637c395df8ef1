package markdown

import (
	"path"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/text"
)

// LanguageOfPath names the language a file is highlighted in, from its
// name (Makefile, Dockerfile) or extension, through the same lexer list as
// fenced code; "" when none fits (the text is then shown plain).
func LanguageOfPath(p string) string {
	base := strings.ToLower(path.Base(p))
	for _, name := range []string{base, strings.TrimPrefix(path.Ext(base), ".")} {
		if name != "" && lexerFor(name) != nil {
			return name
		}
	}
	return ""
}

// HighlightSource splits source text into rows of Syn* spans with the
// fenced-code highlighter and its cache; an unknown language or an
// oversized text gives plain Panel rows. The rows are shared: callers
// never change them.
func HighlightSource(lang, src string) []text.Line { return highlightCached(lang, src) }
