package markdown

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/text"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// variants are the renderings every input is checked in.
var variants = []struct {
	name  string
	width int
	opts  Options
}{
	{"w40", 40, Options{}},
	{"w80", 80, Options{}},
	{"ascii-w40", 40, Options{ASCII: true}},
}

func TestGoldens(t *testing.T) {
	inputs, err := filepath.Glob("testdata/input/*.md")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		for _, v := range variants {
			t.Run(name+"/"+v.name, func(t *testing.T) {
				r := Render(string(src), v.width, v.opts)
				checkRows(t, r, v.width)
				compareGolden(t, filepath.Join("testdata", "golden", name+"."+v.name+".txt"), dumpResult(r))
			})
		}
	}
}

func dumpResult(r Result) string {
	var b strings.Builder
	b.WriteString(text.Dump(r.Lines))
	for _, cb := range r.Blocks {
		fmt.Fprintf(&b, "block rows %d-%d lang %q code %q\n", cb.StartLine, cb.EndLine, cb.Lang, cb.Code)
	}
	return b.String()
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update after checking):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// checkRows asserts what every rendering promises: rows fit, nothing a
// terminal would act on is in a span, and code blocks point at rows.
func checkRows(t *testing.T, r Result, width int) {
	t.Helper()
	for i, l := range r.Lines {
		if w := text.LineWidth(l); w > width {
			t.Errorf("row %d is %d cells wide, limit %d: %q", i, w, width, l)
		}
		for _, sp := range l {
			if bad := unsafeRune(sp.Text); bad >= 0 {
				t.Errorf("row %d holds %U raw: %q", i, bad, sp.Text)
			}
		}
	}
	for _, cb := range r.Blocks {
		if cb.StartLine < 0 || cb.EndLine > len(r.Lines) || cb.StartLine >= cb.EndLine {
			t.Errorf("code block rows %d-%d out of %d", cb.StartLine, cb.EndLine, len(r.Lines))
		}
		if bad := unsafeRune(cb.Code); bad >= 0 && bad != '\n' && bad != '\t' {
			t.Errorf("code block holds %U raw", bad)
		}
	}
}

// unsafeRune returns the first control, DEL, C1 or bidi formatting rune
// in s (tabs and newlines included: rows hold neither), or -1.
func unsafeRune(s string) rune {
	for _, r := range s {
		switch {
		case r < 0x20, r >= 0x7f && r < 0xa0,
			r == 0x61c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, r == 0xfffd && false:
			return r
		}
	}
	return -1
}
