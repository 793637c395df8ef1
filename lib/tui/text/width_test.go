package text

import (
	"os"
	"os/exec"
	"testing"
)

// withEastAsian runs f with RUNEWIDTH_EASTASIAN set as tcell would read it,
// restoring the default afterwards.
func withEastAsian(t *testing.T, value string, f func()) {
	t.Helper()
	t.Setenv("RUNEWIDTH_EASTASIAN", value)
	applyEastAsianEnv(os.Getenv)
	defer applyEastAsianEnv(func(string) string { return "" })
	f()
}

func TestWidth(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"ascii", "hello", 5},
		{"cjk is two cells each", "日本語", 6},
		{"combining acute joins its base", "cafe\u0301", 4},
		{"combining marks stacked", "a\u0300\u0301\u0302", 1},
		{"zwj family is one cluster", "👩\u200d👩\u200d👧", 2},
		{"zwj technologist", "👩\u200d💻x", 3},
		{"flag", "🇪🇸", 2},
		{"tab from column 0", "\t", 4},
		{"tab to next stop", "ab\tc", 5},
		{"tab at a stop", "abcd\te", 9},
		{"escape drawn as replacement", "a\x1bb", 3},
		{"C1 control drawn as replacement", "a\u009bb", 3},
		{"ambiguous glyphs narrow by default", "…•│●×─", 6},
		{"check mark is neutral", "✓", 1},
	}
	for _, c := range cases {
		if got := Width(c.in); got != c.want {
			t.Errorf("%s: Width(%q) = %d, want %d", c.name, c.in, got, c.want)
		}
	}
}

func TestWidthEastAsianAmbiguous(t *testing.T) {
	// With RUNEWIDTH_EASTASIAN=1 the reference glyphs take two cells, as
	// tcell draws them; ✓ (Neutral) and ASCII stay one.
	for _, v := range []string{"1", "true", "YES"} {
		withEastAsian(t, v, func() {
			if !AmbiguousWide() {
				t.Fatalf("RUNEWIDTH_EASTASIAN=%s: AmbiguousWide() = false", v)
			}
			if got := Width("…•│●×─"); got != 12 {
				t.Errorf("RUNEWIDTH_EASTASIAN=%s: ambiguous width = %d, want 12", v, got)
			}
			if got := Width("✓a"); got != 2 {
				t.Errorf("RUNEWIDTH_EASTASIAN=%s: Width(✓a) = %d, want 2", v, got)
			}
		})
	}
	withEastAsian(t, "0", func() {
		if AmbiguousWide() || Width("…") != 1 {
			t.Errorf("RUNEWIDTH_EASTASIAN=0 must keep ambiguous glyphs one cell")
		}
	})
}

func TestLineWidthTabStopsCrossSpans(t *testing.T) {
	l := Line{{Text: "ab"}, {Text: "\tc"}}
	if got := LineWidth(l); got != 5 {
		t.Errorf("LineWidth = %d, want 5 (tab stop counted from the line start)", got)
	}
}

func TestExpandTabs(t *testing.T) {
	l := Line{{Text: "ab"}, {Text: "\tc\x07", Token: 3}}
	got := ExpandTabs(l)
	if got[0].Text != "ab" || got[1].Text != "  c?" || got[1].Token != 3 {
		t.Errorf("ExpandTabs = %q", got)
	}
	plain := Line{{Text: "no tabs"}}
	if &ExpandTabs(plain)[0] != &plain[0] {
		t.Error("ExpandTabs copied a line with nothing to expand")
	}
}

// TestEastAsianAtStartup proves the package reads RUNEWIDTH_EASTASIAN when
// it loads (as tcell does), not only when a test calls the rule: it runs
// this test binary again with the variable set.
func TestEastAsianAtStartup(t *testing.T) {
	if os.Getenv("FLUZO_TEXT_EA_CHILD") == "1" {
		if !AmbiguousWide() || Width("…") != 2 {
			os.Exit(3)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEastAsianAtStartup$")
	cmd.Env = append(os.Environ(), "FLUZO_TEXT_EA_CHILD=1", "RUNEWIDTH_EASTASIAN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child with RUNEWIDTH_EASTASIAN=1 did not measure … as 2 cells: %v\n%s", err, out)
	}
}
