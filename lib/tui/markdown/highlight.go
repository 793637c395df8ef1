package markdown

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// maxHighlighted bounds the code handed to chroma: its lexers are
// backtracking regular expressions, and a hostile or huge block must not
// stall the screen. Larger blocks are shown plain.
const maxHighlighted = 32 << 10

// highlight splits code into rows of spans: chroma's tokens mapped onto
// the Syn* tokens (never chroma's own colours), Panel for the rest. An
// unknown language, an oversized block or any lexer trouble gives plain
// Panel rows: highlighting is decoration, never a reason to fail.
func highlight(lang, code string) []text.Line {
	rows := strings.Count(code, "\n") + 1
	lexer := lexerFor(lang)
	if lexer == nil || len(code) > maxHighlighted {
		return plainRows(code)
	}
	it, err := lexer.Tokenise(nil, code)
	if err != nil {
		return plainRows(code)
	}
	out := make([]text.Line, 1, rows+1)
	seen := 0
	for tok := it(); tok != chroma.EOF; tok = it() {
		tk := synToken(tok.Type)
		for part, rest, more := cutLine(tok.Value); ; part, rest, more = cutLine(rest) {
			if part != "" {
				out[len(out)-1] = append(out[len(out)-1], text.Span{Text: part, Token: tk})
				seen += len(part)
			}
			if !more {
				break
			}
			out = append(out, nil)
			seen++
		}
	}
	// Lexers may add a final newline; anything else that does not add up
	// to the code means the tokens are not the text, so show the text.
	for len(out) > rows && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
		seen--
	}
	if seen != len(code) || len(out) != rows {
		return plainRows(code)
	}
	return out
}

// cutLine splits s at its first newline.
func cutLine(s string) (before, after string, found bool) {
	return strings.Cut(s, "\n")
}

func plainRows(code string) []text.Line {
	parts := strings.Split(code, "\n")
	out := make([]text.Line, len(parts))
	for i, p := range parts {
		if p != "" {
			out[i] = text.Line{{Text: p, Token: theme.Panel}}
		}
	}
	return out
}

// synToken maps a chroma token type onto a theme role.
func synToken(t chroma.TokenType) theme.Token {
	switch {
	case t.InCategory(chroma.Comment):
		return theme.SynComment
	case t == chroma.KeywordType || t == chroma.NameClass || t == chroma.NameBuiltin:
		return theme.SynType
	case t.InCategory(chroma.Keyword), t == chroma.NameTag, t == chroma.GenericSubheading:
		return theme.SynKeyword
	case t.InSubCategory(chroma.LiteralString):
		return theme.SynString
	case t.InSubCategory(chroma.LiteralNumber):
		return theme.SynNumber
	case t == chroma.NameFunction || t == chroma.NameFunctionMagic:
		return theme.SynFunction
	case t.InCategory(chroma.Operator):
		return theme.SynOperator
	case t == chroma.GenericInserted:
		return theme.Success
	case t == chroma.GenericDeleted:
		return theme.Error
	}
	return theme.Panel
}

// Lexers are built on first use (lexers.go) and remembered — misses too —
// up to a bound a hostile message cannot grow past.
var (
	lexerMu    sync.Mutex
	lexerCache = map[string]chroma.Lexer{}
)

const maxCachedLexers = 128

func lexerFor(lang string) chroma.Lexer {
	lang = strings.ToLower(lang)
	if !plausibleLanguage(lang) {
		return nil
	}
	lexerMu.Lock()
	defer lexerMu.Unlock()
	if l, ok := lexerCache[lang]; ok {
		return l
	}
	var l chroma.Lexer
	if found := newLexer(lang); found != nil {
		l = chroma.Coalesce(found)
	}
	if len(lexerCache) < maxCachedLexers {
		lexerCache[lang] = l
	}
	return l
}

// plausibleLanguage accepts info strings that can name a lexer ("go",
// "c++", "objective-c", "f#", "shell-session"); anything else is not
// looked up at all.
func plausibleLanguage(lang string) bool {
	if lang == "" || len(lang) > 32 {
		return false
	}
	for i := 0; i < len(lang); i++ {
		c := lang[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("+#._-", c) >= 0) {
			return false
		}
	}
	return true
}
