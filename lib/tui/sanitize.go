package tui

import (
	"strings"
	"unicode/utf8"
)

// TEMPORARY until lib/termsafe lands on main: the smallest safe stand-in
// (drop C0/C1 controls and invalid bytes, keep newlines, tabs → spaces).
// Replaced by termsafe.Text / termsafe.Line / termsafe.Stream.

func safeText(s string) string { return dropEscapes(s) }

func filterRunes(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune('\uFFFD')
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString("    ")
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
		case isBidi(r):
			b.WriteString("[U+" + hex4(r) + "]")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func safeLine(s string) string { return strings.ReplaceAll(safeText(s), "\n", "\\n") }

func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

func hex4(r rune) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]})
}

// stream is the incremental form for deltas: a sequence split across
// deltas is held until complete.
type stream struct{ pending string }

func (st *stream) write(chunk string) string {
	s := st.pending + chunk
	st.pending = ""
	// Hold an incomplete UTF-8 tail or an escape sequence still open.
	if i := strings.LastIndexByte(s, 0x1b); i >= 0 && !strings.ContainsAny(s[i:], "\x07\\ABCDEFGHJKSTfmnsuhl") {
		st.pending, s = s[i:], s[:i]
	}
	for k := 1; k <= 3 && k <= len(s); k++ {
		if !utf8.FullRuneInString(s[len(s)-k:]) && utf8.RuneStart(s[len(s)-k]) {
			st.pending, s = s[len(s)-k:]+st.pending, s[:len(s)-k]
			break
		}
	}
	return dropEscapes(s)
}

// dropEscapes removes ESC-introduced sequences before the rune filter.
func dropEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			b.WriteByte(s[i])
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == ']' { // OSC: to BEL or ST
			for j++; j < len(s) && s[j] != 0x07 && !(s[j] == '\\' && s[j-1] == 0x1b); j++ {
			}
		} else if j < len(s) && s[j] == '[' { // CSI: to a final byte
			for j++; j < len(s) && (s[j] < 0x40 || s[j] > 0x7e); j++ {
			}
		}
		i = j
	}
	return filterRunes(b.String())
}
