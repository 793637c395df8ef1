package termsafe

import "unicode/utf8"

type mode int

const (
	modeText mode = iota // keeps '\n' and '\t'
	modeLine             // escapes every C0 control
)

const hexDigits = "0123456789abcdef"

// scan appends the safe form of s to dst and reports how many bytes of s
// it consumed. With final false (a stream), it stops before a tail whose
// form depends on bytes not seen yet: an incomplete UTF-8 rune, or a
// backslash that may still begin something that reads as an escape.
// Every decision looks only at the bytes of one item and those just after
// it, which is why a stream split anywhere gives the same output.
func scan(dst []byte, s string, m mode, final bool) ([]byte, int) {
	i := 0
	for i < len(s) {
		// Copy a run of plain ASCII at once: the common case.
		j := i
		for j < len(s) && plainASCII(s[j], m) {
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c != '\\' {
				dst = appendByte(dst, c)
				i++
				continue
			}
			lit, decided := readsAsEscape(s[i+1:], final)
			if !decided {
				return dst, i
			}
			if lit {
				dst = appendByte(dst, '\\')
			} else {
				dst = append(dst, '\\')
			}
			i++
			continue
		}
		if !final && !utf8.FullRuneInString(s[i:]) {
			return dst, i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = appendByte(dst, c)
		case escapedRune(r):
			dst = appendRune(dst, r)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst, i
}

// needsEscape reports whether scan would change s.
func needsEscape(s string, m mode) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '\\' {
				if lit, _ := readsAsEscape(s[i+1:], true); lit {
					return true
				}
			} else if !plainASCII(c, m) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || escapedRune(r) {
			return true
		}
		i += size
	}
	return false
}

// plainASCII reports whether c is an ASCII byte that passes through
// unchanged and needs no look-ahead.
func plainASCII(c byte, m mode) bool {
	switch {
	case c >= utf8.RuneSelf, c == '\\', c == 0x7f:
		return false
	case c >= 0x20:
		return true
	default:
		return m == modeText && (c == '\n' || c == '\t')
	}
}

// readsAsEscape reports whether rest (what follows a literal backslash)
// would make the backslash read as one of our escapes: 'x' and two hex
// digits naming a byte we write as \xHH, or 'u' and four naming a rune we
// write as \uHHHH (hex in either case). Anything else — "\n", "\x41",
// JSON's "\u003c" — cannot be mistaken for an escape and stays as it is.
// decided is false when rest is too short to tell and more may follow.
func readsAsEscape(rest string, final bool) (lit, decided bool) {
	if len(rest) == 0 {
		return false, final
	}
	var n int
	switch rest[0] {
	case 'x':
		n = 2
	case 'u':
		n = 4
	default:
		return false, true
	}
	v := rune(0)
	for k := 1; k <= n; k++ {
		if k >= len(rest) {
			return false, final
		}
		d, ok := hexVal(rest[k])
		if !ok {
			return false, true
		}
		v = v<<4 | d
	}
	if n == 2 {
		return escapedByte(byte(v)), true
	}
	return escapedRune(v), true
}

// escapedByte reports whether \xHH is an escape we write: a C0 control,
// DEL, a byte of invalid UTF-8 (0x80 and up), or the backslash itself.
func escapedByte(c byte) bool {
	return c < 0x20 || c == 0x7f || c >= 0x80 || c == '\\'
}

func hexVal(c byte) (rune, bool) {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0'), true
	case 'a' <= c && c <= 'f':
		return rune(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return rune(c-'A') + 10, true
	}
	return 0, false
}

// escapedRune reports whether a valid rune must not reach a terminal raw:
// C1 controls and the characters that reorder or split displayed text.
func escapedRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r == 0x061c: // ARABIC LETTER MARK
		return true
	case r == 0x200e || r == 0x200f: // LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // LINE/PARAGRAPH SEPARATOR, LRE..RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI..PDI
		return true
	}
	return false
}

func appendByte(dst []byte, c byte) []byte {
	return append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
}

// appendRune writes \uHHHH; every escaped rune is in the BMP.
func appendRune(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[(r>>12)&15], hexDigits[(r>>8)&15], hexDigits[(r>>4)&15], hexDigits[r&15])
}
