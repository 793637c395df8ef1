package text

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

func TestWrapOutput(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"0 filtered out; finished in 0.00s", 20, "0 filtered out; |finished in 0.00s"},
		{"    indented code here", 12, "    |indented |code here"},
		{"averyveryverylongword x", 8, "averyver|yverylon|gword x"},
		{"a  b", 2, "a | b"},     // every space kept
		{"日本 語", 4, "日本| 語"},     // a row never passes the width, even for a space
		{"\tx y", 5, "    |x y"}, // the tab is four spaces
		{"a\nb c", 5, "a|b c"},
		{" 0000本00000", 5, " |0000|本000|00"}, // the carried word and a wide cluster still overflow
	}
	for _, c := range cases {
		rows := WrapOutput(Line{{Text: c.in}}, c.width)
		got := strings.Join(plain(rows), "|")
		if got != c.want {
			t.Errorf("WrapOutput(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		for _, r := range rows {
			if LineWidth(r) > c.width {
				t.Errorf("WrapOutput(%q, %d): row %q is wider than the width", c.in, c.width, plain([]Line{r})[0])
			}
		}
	}
}

func TestWrapOutputKeepsSpans(t *testing.T) {
	l := Line{{Text: "ok. ", Token: theme.Success}, {Text: "finished in", Token: theme.Muted}}
	rows := WrapOutput(l, 10)
	if len(rows) < 2 || rows[0][0].Token != theme.Success || rows[1][0].Token != theme.Muted {
		t.Fatalf("spans not kept: %+v", rows)
	}
	var joined string
	for _, r := range rows {
		for _, sp := range r {
			joined += sp.Text
		}
	}
	if joined != "ok. finished in" {
		t.Fatalf("rows joined %q, want the line back", joined)
	}
}

// Rows never pass the width and, joined, give back the line as drawn.
func FuzzWrapOutput(f *testing.F) {
	for _, s := range []string{"0 filtered out; finished in 0.00s", "a  b", "日本 語", "\tx y", "e\u0301 e\u0301e\u0301", "👍🏽 ok"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		if width < 1 || width > 200 || strings.Contains(s, "\n") {
			return
		}
		want := ""
		for _, sp := range normalize(Line{{Text: s}}, width) {
			want += sp.Text
		}
		got := ""
		for _, r := range WrapOutput(Line{{Text: s}}, width) {
			if LineWidth(r) > width {
				t.Fatalf("row %q wider than %d", plain([]Line{r})[0], width)
			}
			for _, sp := range r {
				got += sp.Text
			}
		}
		if got != want {
			t.Fatalf("joined %q, want %q", got, want)
		}
	})
}
