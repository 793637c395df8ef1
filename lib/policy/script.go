package policy

import "strings"

// scriptCommands returns the commands of a shell script for
// classification, read two ways and combined: quote-aware (so "sh -c
// '...'" yields its script whole) and quote-blind (so a command hidden in
// a quoted substitution is still seen). It is a conservative classifier,
// not a shell parser: authorization of scripts is by exact text.
func scriptCommands(script string) [][]string {
	return append(quotedCommands(script), splitScript(script)...)
}

// quotedCommands splits at ; | & newline ( ) and backquotes outside
// quotes, honouring '...', "..." and backslash escapes within words.
func quotedCommands(script string) [][]string {
	var out [][]string
	var cur []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			cur = append(cur, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		endWord()
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '\'':
			end := strings.IndexByte(script[i+1:], '\'')
			if end < 0 {
				end = len(script) - i - 1
			}
			word.WriteString(script[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(script) && script[j] != '"'; j++ {
				if script[j] == '\\' && j+1 < len(script) {
					j++
				}
				word.WriteByte(script[j])
			}
			i = j
			inWord = true
		case c == '\\' && i+1 < len(script):
			i++
			word.WriteByte(script[i])
			inWord = true
		case c == ' ' || c == '\t':
			endWord()
		case strings.IndexByte(";|&\n()`", c) >= 0:
			endCmd()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endCmd()
	return out
}
