// Package termsafe makes untrusted text safe to print on a terminal. It is
// the one place the rule lives; every human-facing printer (CLI tables,
// debug prompt, replay, store, observe, the TUI) calls it.
//
// What is escaped:
//
//   - C0 controls U+0000–U+001F (Text keeps '\n' and '\t'; Line escapes
//     them too), including ESC, so no escape sequence (CSI, OSC — OSC 52
//     clipboard writes, OSC 8 hyperlinks — DCS, APC, PM, SOS) can reach
//     the terminal: its ESC becomes visible and the rest is inert text.
//   - '\r' always: "safe\rEVIL" would otherwise print EVIL over safe.
//   - DEL U+007F and the C1 controls U+0080–U+009F (8-bit CSI, OSC, ...).
//   - Bidirectional formatting characters U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069, and the separators U+2028, U+2029:
//     they reorder or break what is shown ("evil\u202Etxt.exe").
//   - Every byte that is not part of valid UTF-8.
//
// The notation is Go's: a byte is written \xHH (controls below U+0080 and
// invalid bytes) and an escaped rune \uHHHH, with lower-case hex. So ESC
// prints as \x1b, a stray 0xff byte as \xff, U+202E as \u202e. A raw
// U+0085 (bytes c2 85) prints as \u0085, distinct from an invalid lone
// byte 0x85, which prints as \x85.
//
// Why it is unambiguous: a reader must be able to tell an escape from the
// same characters typed literally. The escapes are a closed set — \xHH
// for a C0 control, DEL, the backslash or a byte of invalid UTF-8
// (0x80–0xff), \uHHHH for one of the runes listed above — and a literal
// backslash is itself written \x5c exactly when it begins something in
// that set ("\x1b" typed as text prints as \x5cx1b). Every other
// backslash passes through, so ordinary source text stays readable: "\n",
// `C:\dir`, "\x41", JSON's "\u003c". Decoding is therefore a function:
// \xHH or \uHHHH in the set (hex in either case) is an escape, any other
// backslash is literal. The tests decode Text's output back to its input.
package termsafe

import "unicode/utf8"

// Text returns s safe to print: printable text, '\n' and '\t' pass
// through; every other control is escaped visibly.
func Text(s string) string {
	if !needsEscape(s, modeText) {
		return s
	}
	b, _ := scan(make([]byte, 0, len(s)+16), s, modeText, true)
	return string(b)
}

// Line is Text that also escapes '\n', '\r' and '\t' — for one-line
// fields (paths, argv items, names, titles).
func Line(s string) string {
	if !needsEscape(s, modeLine) {
		return s
	}
	b, _ := scan(make([]byte, 0, len(s)+16), s, modeLine, true)
	return string(b)
}

// AppendText appends Text(s) to dst, for hot paths that build a buffer.
func AppendText(dst []byte, s string) []byte {
	b, _ := scan(dst, s, modeText, true)
	return b
}

// AppendLine appends Line(s) to dst.
func AppendLine(dst []byte, s string) []byte {
	b, _ := scan(dst, s, modeLine, true)
	return b
}

// Escaped reports whether Text(s) differs from s, i.e. whether s holds
// anything a terminal must not see raw.
func Escaped(s string) bool { return needsEscape(s, modeText) }

// Stream sanitizes text that arrives in chunks (streamed model output,
// tool output). Whatever the chunking, the concatenation of every Write
// and the final Flush equals Text of the concatenated input. It holds at
// most a few bytes: an incomplete UTF-8 rune, or a backslash whose
// following characters may still turn out to look like an escape.
type Stream struct {
	held [maxHeld]byte
	n    int
}

// maxHeld bounds the state: a backslash plus "u" and three hex digits
// is the longest undecided tail (an incomplete rune is at most 3 bytes).
const maxHeld = 5

// Write returns the safe text for what is complete so far.
func (st *Stream) Write(chunk string) string {
	data := chunk
	if st.n > 0 {
		data = string(st.held[:st.n]) + chunk
		st.n = 0
	}
	out, done := scan(make([]byte, 0, len(data)+16), data, modeText, false)
	// scan stops only at an undecided tail, which is at most maxHeld bytes.
	st.n = copy(st.held[:], data[done:])
	return string(out)
}

// Flush ends the stream: whatever is held comes out, escaped as Text would.
func (st *Stream) Flush() string {
	if st.n == 0 {
		return ""
	}
	s := Text(string(st.held[:st.n]))
	st.n = 0
	return s
}

// Head returns the first n characters of s and whether anything was cut,
// counting an invalid byte as one character. Unlike []rune(s)[:n] it keeps
// invalid bytes as they are, so Text still shows them as \xHH rather than
// as U+FFFD. Cut before escaping, so no escape is cut in half.
func Head(s string, n int) (string, bool) {
	i := 0
	for k := 0; k < n; k++ {
		if i >= len(s) {
			return s, false
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i], i < len(s)
}
