package text

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

func plain(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		var b strings.Builder
		for _, sp := range l {
			b.WriteString(sp.Text)
		}
		out[i] = b.String()
	}
	return out
}

func wrapPlain(s string, width int) []string { return plain(Wrap(Line{{Text: s}}, width)) }

func TestWrap(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		width int
		want  []string
	}{
		{"fits", "hello world", 11, []string{"hello world"}},
		{"break at a space, space dropped", "hello world", 8, []string{"hello", "world"}},
		{"several words", "the quick brown fox jumps", 10, []string{"the quick", "brown fox", "jumps"}},
		{"hard break of a long word", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"long word after a short one", "a abcdefgh", 4, []string{"a", "abcd", "efgh"}},
		{"hanging spaces", "ab     cd", 3, []string{"ab", "cd"}},
		{"newline forces a break", "one\ntwo", 20, []string{"one", "two"}},
		{"empty line stays a line", "", 10, []string{""}},
		{"blank line kept", "a\n\nb", 10, []string{"a", "", "b"}},
		{"cjk breaks between ideographs", "日本語のテキスト", 6, []string{"日本語", "のテキ", "スト"}},
		{"wide cluster never split", "日本語", 3, []string{"日", "本", "語"}},
		{"wide cluster wider than the line", "日本", 1, []string{"?", "?"}},
		{"combining mark stays with its base", "cafe\u0301 cafe\u0301", 4, []string{"cafe\u0301", "cafe\u0301"}},
		{"combining mark in a hard break", "e\u0301e\u0301e\u0301", 2, []string{"e\u0301e\u0301", "e\u0301"}},
		{"zwj emoji not split", "ab👩\u200d💻cd", 3, []string{"ab", "👩\u200d💻", "cd"}},
		{"flag not split", "a🇪🇸🇫🇷", 2, []string{"a", "🇪🇸", "🇫🇷"}},
		{"tab expanded to the stop", "a\tb", 10, []string{"a   b"}},
		{"an expanded tab is a space to break at", "a\tbcdef", 5, []string{"a", "bcdef"}},
		{"control drawn as replacement", "a\x1b]52;c;x\x07b", 20, []string{"a?]52;c;x?b"}},
		{"width below one", "ab", 0, []string{"a", "b"}},
	}
	for _, c := range cases {
		got := wrapPlain(c.in, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: Wrap(%q, %d) = %q, want %q", c.name, c.in, c.width, got, c.want)
		}
	}
}

func TestWrapEastAsian(t *testing.T) {
	// Under RUNEWIDTH_EASTASIAN=1 each bullet is two cells: three take six.
	withEastAsian(t, "1", func() {
		got := wrapPlain("••• ●", 4)
		if strings.Join(got, "|") != "••|•|●" {
			t.Errorf("got %q", got)
		}
		// One-cell lines cannot hold a two-cell ambiguous glyph.
		if got := wrapPlain("…", 1); got[0] != Replacement {
			t.Errorf("got %q", got)
		}
	})
}

func TestWrapKeepsStylesAcrossBreaks(t *testing.T) {
	l := Line{
		{Text: "plain then "},
		{Text: "bold words here", Token: theme.Accent, Attr: Bold},
		{Text: " and code", Token: theme.Warning},
	}
	got := Wrap(l, 12)
	want := [][]Span{
		{{Text: "plain then"}},
		{{Text: "bold words", Token: theme.Accent, Attr: Bold}},
		{{Text: "here", Token: theme.Accent, Attr: Bold}, {Text: " and", Token: theme.Warning}},
		{{Text: "code", Token: theme.Warning}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines %q", len(got), plain(got))
	}
	for i := range want {
		if !equalLines(got[i], want[i]) {
			t.Errorf("line %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestWrapNoBreakAcrossStyledWord(t *testing.T) {
	// "**bold**tail" is one word: the span boundary is not a break.
	l := Line{{Text: "xx "}, {Text: "bold", Attr: Bold}, {Text: "tail"}}
	got := plain(Wrap(l, 9))
	if strings.Join(got, "|") != "xx|boldtail" {
		t.Errorf("got %q", got)
	}
}

func TestWrapSharesText(t *testing.T) {
	src := "alpha beta gamma delta"
	got := Wrap(Line{{Text: src}}, 10)
	for _, l := range got {
		for _, sp := range l {
			if !strings.Contains(src, sp.Text) || !sameBacking(src, sp.Text) {
				t.Errorf("span %q was copied", sp.Text)
			}
		}
	}
}

func sameBacking(whole, part string) bool {
	if part == "" {
		return true
	}
	i := strings.Index(whole, part)
	return i >= 0 && unsafeData(whole[i:]) == unsafeData(part)
}

// FuzzWrap checks the wrapper's invariants on arbitrary text: every line
// fits, nothing but spaces and newlines is lost or invented, and no
// output line splits a grapheme cluster (its bytes are valid UTF-8 and
// the clusters concatenate back to the input's).
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"hello world", "日本語のテキスト", "cafe\u0301 👩\u200d💻 🇪🇸", "a\nb  c", "x-y/z.w"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		if !utf8.ValidString(s) || hasSpecial(s) || width < maxClusterWidth || width > 200 {
			return
		}
		lines := Wrap(Line{{Text: s, Attr: Italic}}, width)
		var got strings.Builder
		for _, l := range lines {
			if w := LineWidth(l); w > width {
				t.Fatalf("line %q is %d wide, limit %d", plain([]Line{l}), w, width)
			}
			for _, sp := range l {
				if sp.Attr != Italic {
					t.Fatalf("style lost on %q", sp.Text)
				}
				got.WriteString(sp.Text)
			}
		}
		strip := func(s string) string { return strings.NewReplacer(" ", "", "\n", "").Replace(s) }
		if strip(got.String()) != strip(s) {
			t.Fatalf("content changed: %q -> %q", s, plain(lines))
		}
	})
}

// FuzzWrapAnything: whatever the text (controls, tabs, invalid UTF-8,
// newlines) and the width, every row fits and holds no tab or control.
func FuzzWrapAnything(f *testing.F) {
	f.Add("a\tb\x1b[31m日本\n\u0301x", 1)
	f.Add("\xff\xfe\t\t  -42 ( x", 3)
	f.Fuzz(func(t *testing.T, s string, width int) {
		if width > 300 || width < -5 {
			return
		}
		for _, wrap := range []func(Line, int) []Line{Wrap, HardWrap} {
			for _, l := range wrap(Line{{Text: s}, {Text: s, Attr: Bold}}, width) {
				if w := LineWidth(l); w > max(width, 1) {
					t.Fatalf("row %q is %d wide, limit %d", plain([]Line{l}), w, width)
				}
				for _, sp := range l {
					if hasSpecial(sp.Text) || strings.IndexByte(sp.Text, '\n') >= 0 {
						t.Fatalf("row holds a control: %q", sp.Text)
					}
				}
			}
		}
	})
}
