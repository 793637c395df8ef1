package grantspec

import (
	"errors"
	"strings"
)

// splitWords splits text into words like a POSIX shell splits a simple
// command: whitespace separates, '…' is literal, "…" allows \" and \\,
// a backslash escapes the next character. Nothing else is special: the
// result is an argv, never a script.
func splitWords(text string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(text[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(text) && text[j] != '"'; j++ {
				if text[j] == '\\' && j+1 < len(text) && (text[j+1] == '"' || text[j+1] == '\\') {
					j++
				}
				cur.WriteByte(text[j])
			}
			if j >= len(text) {
				return nil, errors.New("unterminated double quote")
			}
			i = j
			inWord = true
		case c == '\\' && i+1 < len(text):
			i++
			cur.WriteByte(text[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// firstWord returns the first (quote-aware) word of s and the rest.
func firstWord(s string) (string, string) {
	s = strings.TrimLeft(s, " \t")
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		switch {
		case quote != 0 && s[i] == quote:
			quote = 0
		case quote == 0 && (s[i] == '\'' || s[i] == '"'):
			quote = s[i]
		case quote == 0 && (s[i] == ' ' || s[i] == '\t'):
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

func unquote(w string) string {
	if words, err := splitWords(w); err == nil && len(words) == 1 {
		return words[0]
	}
	return w
}

// quoteWord quotes w so that splitWords returns it unchanged.
func quoteWord(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
