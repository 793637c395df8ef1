package config

import (
	"strings"
)

// located is where one key or table header sits in a TOML text. Lines are
// 0-based indexes into the text split on "\n"; a multi-line value spans
// Start..End inclusive.
type located struct {
	Key    string // full dotted key; for headers the table path
	Header bool
	Start  int
	End    int
}

// locate scans TOML text for table headers and key/value lines. BurntSushi
// /toml's MetaData lists the keys but does not expose their positions, and
// saving must edit the text surgically anyway, so both use this scanner.
// It assumes text that already parsed as TOML.
func locate(text string) []located {
	lines := strings.Split(text, "\n")
	var out []located
	table := ""
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			inner := strings.TrimPrefix(line, "[")
			inner = strings.TrimPrefix(inner, "[")
			segs, _, ok := parseKeyPath(inner)
			if ok {
				table = strings.Join(segs, ".")
				out = append(out, located{Key: table, Header: true, Start: i, End: i})
			}
			continue
		}
		segs, rest, ok := parseKeyPath(line)
		if !ok || !strings.HasPrefix(rest, "=") {
			continue
		}
		key := strings.Join(segs, ".")
		if table != "" {
			key = table + "." + key
		}
		end := valueEnd(lines, i, strings.TrimSpace(rest[1:]))
		out = append(out, located{Key: key, Start: i, End: end})
		i = end
	}
	return out
}

// parseKeyPath reads a dotted key (bare, "basic" or 'literal' segments)
// from the start of s and returns the segments and what follows.
func parseKeyPath(s string) ([]string, string, bool) {
	var segs []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return nil, "", false
		}
		var seg string
		switch s[0] {
		case '"':
			end := closingQuote(s, '"')
			if end < 0 {
				return nil, "", false
			}
			seg = unescapeBasic(s[1:end])
			s = s[end+1:]
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, "", false
			}
			seg = s[1 : end+1]
			s = s[end+2:]
		default:
			n := 0
			for n < len(s) && isBareKeyChar(s[n]) {
				n++
			}
			if n == 0 {
				return nil, "", false
			}
			seg, s = s[:n], s[n:]
		}
		segs = append(segs, seg)
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, ".") {
			s = s[1:]
			continue
		}
		return segs, s, true
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// closingQuote returns the index of the quote closing a basic string that
// starts at s[0], honouring backslash escapes.
func closingQuote(s string, q byte) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}

func unescapeBasic(s string) string {
	if v, ok := decodeTOMLValue(`"` + s + `"`); ok {
		if str, ok := v.(string); ok {
			return str
		}
	}
	return s
}

// valueEnd returns the last line of the value starting on line start with
// text first: arrays and multi-line strings may continue on later lines.
func valueEnd(lines []string, start int, first string) int {
	var sc valueScanner
	sc.feed(first)
	i := start
	for !sc.done() && i+1 < len(lines) {
		i++
		sc.feed("\n" + lines[i])
	}
	return i
}

// valueScanner tracks bracket depth and multi-line strings across lines.
type valueScanner struct {
	depth     int
	multiline string // `"""` or `'''` while inside one
}

func (v *valueScanner) done() bool { return v.depth <= 0 && v.multiline == "" }

func (v *valueScanner) feed(s string) {
	for i := 0; i < len(s); i++ {
		if v.multiline != "" {
			if v.multiline == `"""` && s[i] == '\\' {
				i++
				continue
			}
			if strings.HasPrefix(s[i:], v.multiline) {
				i += 2
				v.multiline = ""
			}
			continue
		}
		switch c := s[i]; {
		case strings.HasPrefix(s[i:], `"""`), strings.HasPrefix(s[i:], `'''`):
			v.multiline = s[i : i+3]
			i += 2
		case c == '"':
			if end := closingQuote(s[i:], '"'); end > 0 {
				i += end
			}
		case c == '\'':
			if end := strings.IndexByte(s[i+1:], '\''); end >= 0 {
				i += end + 1
			}
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '[' || c == '{':
			v.depth++
		case c == ']' || c == '}':
			v.depth--
		}
	}
}

// lineOf maps each located key to its 1-based line.
func lineIndex(text string) map[string]int {
	out := map[string]int{}
	for _, l := range locate(text) {
		if _, seen := out[l.Key]; !seen {
			out[l.Key] = l.Start + 1
		}
	}
	return out
}
