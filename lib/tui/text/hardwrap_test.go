package text

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

func TestHardWrap(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"if a == b {", 4, "if a| == |b {"},
		{"    indented code", 8, "    inde|nted cod|e"},
		{"日本語", 3, "日|本|語"},
		{"\tx", 3, "   | x"}, // the tab is four spaces, cut like any others
		{"a\nb", 5, "a|b"},
	}
	for _, c := range cases {
		got := strings.Join(plain(HardWrap(Line{{Text: c.in}}, c.width)), "|")
		if got != c.want {
			t.Errorf("HardWrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

func TestHardWrapKeepsStyles(t *testing.T) {
	l := Line{{Text: "func", Token: theme.SynKeyword}, {Text: " main()", Token: theme.SynFunction}}
	got := HardWrap(l, 6)
	want := []Line{
		{{Text: "func", Token: theme.SynKeyword}, {Text: " m", Token: theme.SynFunction}},
		{{Text: "ain()", Token: theme.SynFunction}},
	}
	if len(got) != len(want) || !equalLines(got[0], want[0]) || !equalLines(got[1], want[1]) {
		t.Errorf("HardWrap = %q, want %q", got, want)
	}
}
