package termsafe

import "unicode/utf8"

// JSON returns the JSON text b with every rune Text would escape written
// as a JSON \uXXXX escape instead: the same JSON value, byte-for-byte
// what encoding/json wrote except that DEL, C1 controls and bidi or
// separator characters no longer reach a terminal raw (encoding/json
// escapes C0 controls but passes U+202E, U+009B and DEL through). A byte
// of invalid UTF-8 becomes \ufffd, as encoding/json itself would write it.
// b must be valid JSON: in it such runes can only occur inside strings,
// where a \u escape means the same character. b is returned unchanged
// (not copied) when nothing needs escaping.
func JSON(b []byte) []byte {
	i := firstUnsafeJSON(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				out = appendRune(out, 0x7f)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = appendRune(out, utf8.RuneError)
		case escapedRune(r):
			out = appendRune(out, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

func firstUnsafeJSON(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && size == 1) || escapedRune(r) {
			return i
		}
		i += size
	}
	return -1
}
