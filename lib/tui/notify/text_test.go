package notify

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/rivo/uniseg"
)

// Unicode that a byte or cell cut can break: ZWJ emoji, CJK (2 cells),
// combining marks, flags.
var graphemeCorpus = map[string]string{
	"zwj-emoji": strings.Repeat("👩‍👩‍👧‍👦 ", 200),
	"cjk":       strings.Repeat("漢字のテスト", 200),
	"combining": strings.Repeat("e\u0301a\u0308o\u0302\u0323 ", 300),
	"flags":     strings.Repeat("🇪🇸🇯🇵", 200),
}

// clusters splits s into grapheme clusters.
func clusters(s string) []string {
	var out []string
	for s != "" {
		c, rest, _, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		out = append(out, c)
		s = rest
	}
	return out
}

// isClusterPrefix: p is whole leading clusters of s.
func isClusterPrefix(p, s string) bool {
	if !strings.HasPrefix(s, p) {
		return false
	}
	n := 0
	for _, c := range clusters(s) {
		if n == len(p) {
			return true
		}
		n += len(c)
	}
	return n == len(p)
}

func TestClipCutsAtAGraphemeBoundary(t *testing.T) {
	for name, s := range graphemeCorpus {
		got := Clip(s, MaxTextBytes)
		if len(got) > MaxTextBytes || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes, valid %v", name, len(got), utf8.ValidString(got))
		}
		kept := strings.TrimSuffix(got, text.Ellipsis)
		if kept == got || !isClusterPrefix(kept, s) {
			t.Errorf("%s: the cut is not at a cluster boundary or has no ellipsis: %q", name, got[max(0, len(got)-40):])
		}
	}
	if got := Clip("short", MaxTextBytes); got != "short" {
		t.Errorf("short text changed: %q", got)
	}
}

func TestLineFitsCellsAtAGraphemeBoundary(t *testing.T) {
	for name, s := range graphemeCorpus {
		for _, w := range []int{1, 2, 3, 7, 10, 21, 44} {
			n := Notice{Text: Clip(s, MaxTextBytes), Count: 3}
			got := Line(n, w, text.Ellipsis)
			if text.Width(got) > w {
				t.Errorf("%s at %d cells: %q is %d wide", name, w, got, text.Width(got))
			}
			kept := strings.TrimSuffix(strings.TrimSuffix(got, " x3"), text.Ellipsis)
			if kept != text.Replacement && !isClusterPrefix(kept, n.Text) {
				t.Errorf("%s at %d cells: %q splits a cluster", name, w, got)
			}
			if w >= 10 && !strings.HasSuffix(got, " x3") {
				t.Errorf("%s at %d cells: the repeat count was cut: %q", name, w, got)
			}
		}
	}
}
