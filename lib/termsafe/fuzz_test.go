package termsafe

import "testing"

// The checked-in corpus (testdata/fuzz/) holds the attacks: OSC 52 and
// OSC 8, CSI cursor and erase, DCS, sequences split across chunks,
// invalid UTF-8 and bidi-spoofed file names.

func FuzzText(f *testing.F) {
	f.Add("evil\u202Etxt.exe")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		assertInert(t, s, out, "\n\t")
		assertInert(t, s, Line(s), "")
		if decode(out) != s {
			t.Fatalf("decode(Text(%q)) = %q", s, decode(out))
		}
		if Escaped(s) != (out != s) {
			t.Fatalf("Escaped(%q) = %v but Text changed it: %v", s, Escaped(s), out != s)
		}
	})
}

// FuzzStream cuts the input at the positions the second argument's bytes
// name and checks the stream output against Text of the whole.
func FuzzStream(f *testing.F) {
	f.Add("\x1b]52;c;ZWNobw==\x07", []byte{3, 1, 1})
	f.Fuzz(func(t *testing.T, s string, steps []byte) {
		var cuts []int
		at := 0
		for _, d := range steps {
			if at += int(d % 8); at >= len(s) {
				break
			}
			cuts = append(cuts, at)
		}
		got := streamed(t, s, cuts)
		if want := Text(s); got != want {
			t.Fatalf("Stream(%q, cuts %v) = %q, want %q", s, cuts, got, want)
		}
		assertInert(t, s, got, "\n\t")
	})
}
