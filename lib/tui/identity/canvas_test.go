package identity

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// grid is a test canvas that records every write, including writes
// outside its area and cells written more than once.
type grid struct {
	w, h     int
	glyphs   []rune
	styles   []tcell.Style
	writes   []int
	outsides int
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, glyphs: make([]rune, w*h), styles: make([]tcell.Style, w*h), writes: make([]int, w*h)}
	for i := range g.glyphs {
		g.glyphs[i] = '·' // never written
	}
	return g
}

func (g *grid) SetContent(x, y int, r rune, _ []rune, st tcell.Style) {
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		g.outsides++
		return
	}
	i := y*g.w + x
	g.glyphs[i], g.styles[i] = r, st
	g.writes[i]++
}

func (g *grid) row(y int) string { return string(g.glyphs[y*g.w : (y+1)*g.w]) }

func (g *grid) text() string {
	var b strings.Builder
	for y := range g.h {
		b.WriteString(g.row(y))
		b.WriteByte('\n')
	}
	return b.String()
}

func (g *grid) style(x, y int) tcell.Style { return g.styles[y*g.w+x] }

// dump is the golden form: the glyph rows, a row of style keys per glyph
// row, and the legend of keys.
func (g *grid) dump() string {
	const keys = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	index := map[tcell.Style]int{}
	var order []tcell.Style
	var b strings.Builder
	for y := range g.h {
		fmt.Fprintf(&b, "text  |%s|\n", g.row(y))
		b.WriteString("style |")
		for x := range g.w {
			st := g.style(x, y)
			k, ok := index[st]
			if !ok {
				k = len(order)
				index[st] = k
				order = append(order, st)
			}
			b.WriteByte(keys[k%len(keys)])
		}
		b.WriteString("|\n")
	}
	for k, st := range order {
		fmt.Fprintf(&b, "  %c = %s\n", keys[k%len(keys)], theme.DescribeStyle(st))
	}
	return b.String()
}

func newTheme(t testing.TB, name string, caps theme.Caps) *theme.Theme {
	t.Helper()
	th, err := theme.New(name, caps)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		w, g := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		for i := range max(len(w), len(g)) {
			var wl, gl string
			if i < len(w) {
				wl = w[i]
			}
			if i < len(g) {
				gl = g[i]
			}
			if wl != gl {
				t.Fatalf("%s differs at line %d (go test -update rewrites it):\n  want %q\n  got  %q", path, i+1, wl, gl)
			}
		}
	}
}

func rgbOf(t *testing.T, c tcell.Color) theme.RGB {
	t.Helper()
	if !c.IsRGB() {
		t.Fatalf("colour %v is not RGB", c)
	}
	r, g, b := c.RGB()
	return theme.RGB{R: uint8(r), G: uint8(g), B: uint8(b)}
}

func fgOf(st tcell.Style) tcell.Color { fg, _, _ := st.Decompose(); return fg }
func bgOf(st tcell.Style) tcell.Color { _, bg, _ := st.Decompose(); return bg }
