package text

import "testing"

func TestTruncate(t *testing.T) {
	cases := []struct {
		in       string
		width    int
		ellipsis string
		want     string
	}{
		{"hello", 5, Ellipsis, "hello"},
		{"hello world", 8, Ellipsis, "hello w…"},
		{"hello world", 7, Ellipsis, "hello…"}, // the space before … is dropped
		{"hello world", 8, ASCIIEllipsis, "hello..."},
		{"日本語テキスト", 7, Ellipsis, "日本語…"},
		{"日本語テキスト", 6, Ellipsis, "日本…"}, // 日本語 would need 7 with …
		{"cafe\u0301 au lait", 5, Ellipsis, "cafe\u0301…"},
		{"👩\u200d💻👩\u200d💻", 3, Ellipsis, "👩\u200d💻…"},
		{"abc", 0, Ellipsis, ""},
		{"abcdef", 2, ASCIIEllipsis, ".."},
		{"日本", 1, "", Replacement},
		{"a\tb", 8, Ellipsis, "a   b"},
		{"a\x1b[31mred", 20, Ellipsis, "a?[31mred"},
		{"two\nlines", 20, Ellipsis, "two?lines"},
	}
	for _, c := range cases {
		got := Truncate(c.in, c.width, c.ellipsis)
		if got != c.want {
			t.Errorf("Truncate(%q, %d, %q) = %q, want %q", c.in, c.width, c.ellipsis, got, c.want)
		}
		if w := Width(got); w > c.width {
			t.Errorf("Truncate(%q, %d) is %d cells wide", c.in, c.width, w)
		}
	}
}

func TestTruncateEastAsian(t *testing.T) {
	withEastAsian(t, "1", func() {
		// … is two cells here, so one fewer letter fits.
		if got := Truncate("hello world", 8, Ellipsis); got != "hello…" {
			t.Errorf("got %q, want hello…", got)
		}
		if got := Truncate("hello", 1, Ellipsis); got != Replacement {
			t.Errorf("a two-cell … in one cell: got %q, want %q", got, Replacement)
		}
	})
}

func TestTruncateLine(t *testing.T) {
	l := Line{{Text: "src/", Token: 2}, {Text: "main.go", Token: 1, Attr: Bold}, {Text: " (42 lines)", Token: 3}}
	got := TruncateLine(l, 9, Ellipsis)
	want := Line{{Text: "src/", Token: 2}, {Text: "main", Token: 1, Attr: Bold}, {Text: "…", Token: 1, Attr: Bold}}
	if !equalLines(got, want) {
		t.Errorf("TruncateLine = %q, want %q", got, want)
	}
	if got := TruncateLine(l, 40, Ellipsis); !equalLines(got, l) {
		t.Errorf("a fitting line changed: %q", got)
	}
	if got := LineWidth(TruncateLine(l, 2, ASCIIEllipsis)); got != 2 {
		t.Errorf("narrow TruncateLine width %d", got)
	}
}

func equalLines(a, b Line) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
