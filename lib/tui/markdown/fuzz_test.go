package markdown

import (
	"testing"

	"github.com/josecorral/fluzo/lib/tui/text"
)

// FuzzRender: any message at any width renders without panicking, every
// row fits (widths too narrow for a prefix excepted) and holds nothing a
// terminal would act on; the incremental renderer agrees with a fresh one.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"# h\n\n- a\n  - b\n\n> q\n\n```go\nx := 1\n```\n", "| a | b |\n|---|---|\n| 1 | 2 |", "[x]: /u\n\n[x] &#x1b; \x1b[31m", "1. a\n\n   ```\n   c\n   ```"} {
		f.Add(s, 30)
	}
	f.Fuzz(func(t *testing.T, src string, width int) {
		if width < 1 || width > 200 || len(src) > 4096 {
			return
		}
		r := Render(src, width, Options{})
		for i, l := range r.Lines {
			if w := text.LineWidth(l); w > width && width >= 8 {
				t.Fatalf("row %d is %d wide, limit %d: %q", i, w, width, l)
			}
			for _, sp := range l {
				if c := unsafeRune(sp.Text); c >= 0 {
					t.Fatalf("row %d holds %U: %q", i, c, sp.Text)
				}
			}
		}
		var inc Renderer
		inc.Render(src[:len(src)/3], width)
		inc.Render(src[:len(src)/2], width)
		inc.Render(src[:2*len(src)/3], width)
		if got := inc.Render(src, width); dumpResult(got) != dumpResult(r) {
			t.Fatalf("incremental render differs for %q", src)
		}
	})
}
