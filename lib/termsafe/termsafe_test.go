package termsafe

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"unicode kept", "naïve café — 日本 🙂", "naïve café — 日本 🙂"},
		{"carriage return", "safe\rEVIL", `safe\x0dEVIL`},
		{"crlf", "a\r\nb", "a\\x0d\nb"},
		{"nul bell backspace", "a\x00b\x07c\x08", `a\x00b\x07c\x08`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"CSI colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"CSI cursor and erase", "\x1b[2J\x1b[H\x1b[1A\x1b[K", `\x1b[2J\x1b[H\x1b[1A\x1b[K`},
		{"OSC 52 clipboard", "\x1b]52;c;ZWNobyBwd25lZA==\x07", `\x1b]52;c;ZWNobyBwd25lZA==\x07`},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;https://evil.example\x1b\click\x1b]8;;\x1b\`},
		{"DCS", "\x1bP1$tx\x1b\\", `\x1bP1$tx\x1b\`},
		{"APC PM SOS", "\x1b_a\x1b\\\x1b^b\x1b\\\x1bXc\x1b\\", `\x1b_a\x1b\\x1b^b\x1b\\x1bXc\x1b\`},
		{"8-bit CSI", "\u009b31m", `\u009b31m`},
		{"NEL rune vs lone byte", "\u0085|\x85", `\u0085|\x85`},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
		{"surrogate half", "\xed\xa0\x80", `\xed\xa0\x80`},
		{"RLO spoofed file name", "evil\u202Etxt.exe", `evil\u202etxt.exe`},
		{"bidi marks and isolates", "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069", `\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"source escapes stay readable", `fmt.Print("\n\t\\")`, `fmt.Print("\n\t\\")`},
		{"windows path stays readable", `C:\dir\new`, `C:\dir\new`},
		{"literal hex escape is disambiguated", `"\x1b"`, `"\x5cx1b"`},
		{"literal unicode escape is disambiguated", `\u202e`, `\x5cu202e`},
		{"too short to read as an escape", `\x1 \u12 \x`, `\x1 \u12 \x`},
		{"escapes outside the set stay", `\x41 \u003c \u00e9 \x20`, `\x41 \u003c \u00e9 \x20`},
		{"upper-case hex in the set", `\x1B \u202E`, `\x5cx1B \x5cu202E`},
		{"literal backslash escape", `\x5c`, `\x5cx5c`},
		{"escape after backslash", "\\\x1b", `\\x1b`},
		{"backslash at end", `a\`, `a\`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := string(AppendText([]byte("> "), tc.in)); got != "> "+tc.want {
				t.Errorf("AppendText(%q) = %q, want %q", tc.in, got, "> "+tc.want)
			}
			if Escaped(tc.in) != (tc.in != tc.want) {
				t.Errorf("Escaped(%q) = %v", tc.in, Escaped(tc.in))
			}
		})
	}
}

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a/b c.go", "a/b c.go"},
		{"two\nlines", `two\x0alines`},
		{"tab\there", `tab\x09here`},
		{"cr\r", `cr\x0d`},
		{"x\u202Egp.exe", `x\u202egp.exe`},
		{`lit\n`, `lit\n`},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := string(AppendLine(nil, tc.in)); got != tc.want {
			t.Errorf("AppendLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTextReturnsInputWhenSafe keeps the common path allocation-free.
func TestTextReturnsInputWhenSafe(t *testing.T) {
	s := strings.Repeat("plain text\n", 100)
	if n := testing.AllocsPerRun(100, func() { _ = Text(s) }); n != 0 {
		t.Errorf("Text on safe input allocates %v times", n)
	}
}

// TestRoundTrip proves the notation unambiguous: decoding the output
// gives back the input, for every input.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := randomInput(rng)
		if got := decode(Text(s)); got != s {
			t.Fatalf("decode(Text(%q)) = %q", s, got)
		}
		if got := decode(Line(s)); got != s {
			t.Fatalf("decode(Line(%q)) = %q", s, got)
		}
	}
}

// TestStreamMatchesText: any chunking of the input gives, concatenated,
// exactly Text of the whole, with the held state never above maxHeld.
func TestStreamMatchesText(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		s := randomInput(rng)
		want := Text(s)
		if got := streamed(t, s, randomCuts(rng, len(s))); got != want {
			t.Fatalf("Stream over chunks of %q = %q, want %q", s, got, want)
		}
	}
}

func TestStreamSplitSequences(t *testing.T) {
	for _, s := range []string{
		"\x1b]52;c;ZWNobw==\x07",
		"ok \u202E txt",
		"é\xe2\x80\xae",
		`keep \x1b literal and \u202e literal`,
		"tail backslash \\",
		"\xf0\x9f\x99",
	} {
		want := Text(s)
		// Every split into one-byte chunks, and every two-way split.
		cuts := make([]int, 0, len(s))
		for i := 1; i < len(s); i++ {
			cuts = append(cuts, i)
		}
		if got := streamed(t, s, cuts); got != want {
			t.Errorf("byte-wise Stream(%q) = %q, want %q", s, got, want)
		}
		for i := 0; i <= len(s); i++ {
			if got := streamed(t, s, []int{i}); got != want {
				t.Errorf("Stream(%q split at %d) = %q, want %q", s, i, got, want)
			}
		}
	}
}

func TestStreamHoldsOnlyUndecidedTail(t *testing.T) {
	var st Stream
	if got := st.Write("abc\xe2\x80"); got != "abc" {
		t.Errorf("Write = %q, want the complete prefix", got)
	}
	if got := st.Write("\xae!"); got != `\u202e!` {
		t.Errorf("Write = %q, want the completed rune escaped", got)
	}
	if got := st.Write(`x\u20`); got != "x" {
		t.Errorf("Write = %q, want the backslash held", got)
	}
	if got := st.Flush(); got != `\u20` {
		t.Errorf("Flush = %q, want the held text as Text shows it", got)
	}
	if got := st.Flush(); got != "" {
		t.Errorf("second Flush = %q, want nothing", got)
	}
}

func streamed(t *testing.T, s string, cuts []int) string {
	t.Helper()
	var st Stream
	var b strings.Builder
	prev := 0
	for _, c := range append(cuts, len(s)) {
		b.WriteString(st.Write(s[prev:c]))
		if st.n > maxHeld {
			t.Fatalf("Stream holds %d bytes", st.n)
		}
		prev = c
	}
	b.WriteString(st.Flush())
	return b.String()
}

func randomCuts(rng *rand.Rand, n int) []int {
	var cuts []int
	for i := 1; i < n; i++ {
		if rng.IntN(3) == 0 {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// randomInput mixes the pieces that interact: controls, backslashes, hex
// digits, split multi-byte runes, bidi controls and invalid bytes.
func randomInput(rng *rand.Rand) string {
	pieces := []string{"a", "x", "u", "0", "1", "2", "b", "c", "e", "F", "5", "7", "8", "9", "20", "02", "00", "1b", "5c", "202", "0085", "2066", `\`, `\x`, `\u`, "\n", "\t", "\r", "\x1b", "\x7f", "\x00",
		"é", "日", "🙂", "\u0085", "\u202e", "\u2028", "\u2066", "\u061c", "\xff", "\xc3", "\xe2\x80", "\xf0\x9f", "[", "]", ";"}
	var b strings.Builder
	for range rng.IntN(24) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// decode inverts the notation: \xHH and \uHHHH are escapes when they are
// in the set Text writes, any other backslash is itself. It is written
// from the package doc, independently of scan.
func decode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) && s[i+1] == 'x' {
			if v, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil && (v < 0x20 || v == 0x5c || v >= 0x7f) {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		if s[i] == '\\' && i+6 <= len(s) && s[i+1] == 'u' {
			if v, err := strconv.ParseUint(s[i+2:i+6], 16, 16); err == nil && listedRune(rune(v)) {
				b.WriteRune(rune(v))
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// listedRune is the package doc's list of runes never shown raw.
func listedRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || r == 0x061c || r == 0x200e || r == 0x200f ||
		(r >= 0x2028 && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// assertInert fails when out could drive a terminal or mislead a reader.
func assertInert(t *testing.T, in, out string, allow string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output for %q is not valid UTF-8: %q", in, out)
	}
	for _, r := range out {
		switch {
		case r < 0x20 && !strings.ContainsRune(allow, r):
			t.Fatalf("output for %q holds control %U: %q", in, r, out)
		case r == 0x7f || listedRune(r):
			t.Fatalf("output for %q holds %U: %q", in, r, out)
		}
	}
}

func TestHead(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
		cut  bool
	}{
		{"abcdef", 3, "abc", true},
		{"abc", 3, "abc", false},
		{"ab", 3, "ab", false},
		{"日本語", 2, "日本", true},
		{"a\xffb\xffc", 3, "a\xffb", true},
		{"", 0, "", false},
		{"x", 0, "", true},
	} {
		got, cut := Head(tc.in, tc.n)
		if got != tc.want || cut != tc.cut {
			t.Errorf("Head(%q, %d) = %q, %v; want %q, %v", tc.in, tc.n, got, cut, tc.want, tc.cut)
		}
	}
}
