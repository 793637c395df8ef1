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
