package text

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// wrapBothWays wraps s with the ASCII fast path and with the Unicode
// algorithm alone.
func wrapBothWays(s string, width int) (fast, unicode string) {
	l := Line{{Text: s}}
	fast = strings.Join(plain(Wrap(l, width)), "|")
	forceUniseg = true
	defer func() { forceUniseg = false }()
	unicode = strings.Join(plain(Wrap(l, width)), "|")
	return fast, unicode
}

// TestASCIIFastPathMatchesUnicode: for printable ASCII the fast path must
// break exactly where UAX #14 (uniseg) does — on prose, code-ish text and
// random punctuation soup.
func TestASCIIFastPathMatchesUnicode(t *testing.T) {
	fixed := []string{
		"the quick brown fox jumps over the lazy dog",
		"call f( x ) and g [ y ] then { z } done",
		"a , b . c ; d : e ! f ? g / h",
		`he said "hello" and 'bye' ( "quoted" ) end`,
		"well-known self-contained path/to/some/file.go and http://example.com/a-b",
		"$100 and 50% of 3.14 or -42 and +7 x=y a<b c>d a_b a|b a~b",
		"  leading spaces and trailing   ",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcxyz0189     -/().,;:!?\"'[]{}$%#&*+=<>@_|~^`\\"
	for range 3000 {
		n := 1 + rng.IntN(40)
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		fixed = append(fixed, string(b))
	}
	for _, s := range fixed {
		for _, w := range []int{1, 2, 3, 5, 8, 13, 21} {
			fast, uni := wrapBothWays(s, w)
			if fast != uni {
				t.Fatalf("Wrap(%q, %d):\nfast    %q\nunicode %q", s, w, fast, uni)
			}
		}
	}
}

func FuzzASCIIFastPath(f *testing.F) {
	f.Add("call f( x ) / y", 5)
	f.Fuzz(func(t *testing.T, s string, width int) {
		if !isPlainASCII(s) || width < 1 || width > 100 {
			return
		}
		if fast, uni := wrapBothWays(s, width); fast != uni {
			t.Fatalf("Wrap(%q, %d):\nfast    %q\nunicode %q", s, width, fast, uni)
		}
	})
}
