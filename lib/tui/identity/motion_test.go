package identity

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestBarGeometry(t *testing.T) {
	for _, w := range []int{0, 1, 60, 80, 120, 160} {
		length := w * 4 / 5
		travel := w - length
		moving := func(d time.Duration) Bar { return Bar{T: d, Working: true, Moving: true} }
		if o, l := BarGeometry(w, moving(0)); o != 0 || l != length {
			t.Errorf("w=%d t=0: %d,%d", w, o, l)
		}
		if o, _ := BarGeometry(w, moving(ms(400))); o != travel {
			t.Errorf("w=%d t=0.4: offset %d, want %d", w, o, travel)
		}
		if o, _ := BarGeometry(w, moving(ms(800))); o != 0 {
			t.Errorf("w=%d t=0.8: offset %d", w, o)
		}
		for m := 0; m < 800; m += 7 {
			o, l := BarGeometry(w, moving(ms(m)))
			if l != length || o < 0 || o+l > w {
				t.Fatalf("w=%d t=%dms: %d+%d overflows", w, m, o, l)
			}
		}
		if o, _ := BarGeometry(w, Bar{T: ms(400)}); o != travel/2 {
			t.Errorf("w=%d idle: offset %d, want centred %d", w, o, travel/2)
		}
	}
	// round(travel·(1−cos(2πt/0.8))/2): 80 columns, travel 16, t=0.1 s.
	if o, _ := BarGeometry(80, Bar{T: ms(100), Moving: true}); o != 2 {
		t.Errorf("offset at 0.1s = %d, want round(16·0.1464) = 2", o)
	}
}

func TestActivityBarCells(t *testing.T) {
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor})
	g := newGrid(20, 1)
	ActivityBar(g, 0, 20, th, Bar{Working: true, Moving: true})
	if got := g.row(0); got != strings.Repeat("▔", 16)+"    " {
		t.Errorf("working bar at t=0: %q", got)
	}
	if got := rgbOf(t, fgOf(g.style(0, 0))); got != (theme.RGB{R: 48, G: 224, B: 224}) {
		t.Errorf("first bar cell %v", got)
	}
	if got := rgbOf(t, fgOf(g.style(15, 0))); got != (theme.RGB{R: 167, G: 113, B: 248}) {
		t.Errorf("last bar cell %v", got)
	}
	g = newGrid(20, 1)
	ActivityBar(g, 0, 20, th, Bar{T: ms(300)})
	if got := g.row(0); got != "  "+strings.Repeat("▔", 16)+"  " {
		t.Errorf("idle bar: %q", got)
	}
	if fg := fgOf(g.style(5, 0)); fg != theme.ANSIDarkGray {
		t.Errorf("idle bar colour %v", fg)
	}
	g = newGrid(20, 1)
	ActivityBar(g, 0, 20, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.NoColor, ASCII: true}), Bar{})
	if got := g.row(0); got != "  "+strings.Repeat("-", 16)+"  " {
		t.Errorf("ascii bar: %q", got)
	}
	// Frozen (FPS 0, reduced motion) is the same at every time.
	for _, working := range []bool{false, true} {
		a, b := newGrid(80, 1), newGrid(80, 1)
		ActivityBar(a, 0, 80, th, Bar{T: 0, Working: working})
		ActivityBar(b, 0, 80, th, Bar{T: 7 * time.Second, Working: working})
		if a.dump() != b.dump() {
			t.Errorf("frozen bar (working=%v) moves", working)
		}
	}
	// The whole row is written every frame.
	g = newGrid(33, 1)
	ActivityBar(g, 0, 33, th, Bar{T: ms(170), Working: true, Moving: true})
	for x, n := range g.writes {
		if n != 1 {
			t.Fatalf("cell %d written %d times", x, n)
		}
	}
}

func TestWaveLevels(t *testing.T) {
	// τ = 0: round((sin(2π·col/14)+1)·3.5) for the even columns.
	want := []int{4, 6, 7, 5, 2, 0, 1, 3}
	for i, w := range want {
		if got := WaveLevel(2*i, 0); got != w {
			t.Errorf("column %d level %d, want %d", 2*i, got, w)
		}
	}
	for col := 0; col < 15; col++ {
		for tau := 0.0; tau < 0.6; tau += 0.01 {
			if l := WaveLevel(col, tau); l < 0 || l > 7 {
				t.Fatalf("level %d out of range", l)
			}
		}
	}
}

func TestWaveRow(t *testing.T) {
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor})
	g := newGrid(40, 1)
	n := DrawWave(g, 0, 0, th, Wave{Moving: true, Elapsed: 12 * time.Second})
	want := "  ▅ ▇ █ ▆ ▃ ▁ ▂ ▄  Working 12s"
	if got := g.row(0)[:len(want)]; got != want || n != len([]rune(want)) {
		t.Errorf("wave row %q (%d cells), want %q", got, n, want)
	}
	// Wave colour: gradient at col/14; label gradient(0.5) at P 1.2.
	if got := rgbOf(t, fgOf(g.style(2, 0))); got != (theme.RGB{R: 48, G: 224, B: 224}) {
		t.Errorf("first bar colour %v", got)
	}
	if got := rgbOf(t, fgOf(g.style(16, 0))); got != (theme.RGB{R: 167, G: 113, B: 248}) {
		t.Errorf("last bar colour %v", got)
	}
	if got := rgbOf(t, fgOf(g.style(19, 0))); got != (theme.RGB{R: 77, G: 151, B: 249}) {
		t.Errorf("label colour %v", got)
	}
	if got := g.style(27, 0); got != th.Style(theme.Muted, 0) {
		t.Errorf("elapsed style %s", theme.DescribeStyle(got))
	}
	// The clock wraps at 0.6 s (wave) and 2.4 s (label).
	a, b, c := newGrid(40, 1), newGrid(40, 1), newGrid(40, 1)
	DrawWave(a, 0, 0, th, Wave{T: 0, Moving: true})
	DrawWave(b, 0, 0, th, Wave{T: 2400 * time.Millisecond, Moving: true})
	DrawWave(c, 0, 0, th, Wave{T: 300 * time.Millisecond, Moving: true})
	if a.dump() != b.dump() {
		t.Error("wave at 2.4 s differs from 0")
	}
	if a.row(0) == c.row(0) {
		t.Error("wave does not move between 0 and 0.3 s")
	}
	// Frozen: the same at every time.
	a, b = newGrid(40, 1), newGrid(40, 1)
	DrawWave(a, 0, 0, th, Wave{T: 0})
	DrawWave(b, 0, 0, th, Wave{T: 777 * time.Millisecond})
	if a.dump() != b.dump() {
		t.Error("frozen wave moves")
	}
	// ASCII glyphs.
	g = newGrid(40, 1)
	DrawWave(g, 0, 0, newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.NoColor, ASCII: true}), Wave{Label: "Working (demo)", Elapsed: 65 * time.Second})
	if want := "  = # # # _ . _ =  Working (demo) 1m05s"; g.row(0)[:len(want)] != want {
		t.Errorf("ascii wave %q", g.row(0))
	}
}

func TestFormatElapsed(t *testing.T) {
	cases := map[time.Duration]string{
		0: "0s", 999 * time.Millisecond: "0s", 59 * time.Second: "59s", time.Minute: "1m00s",
		65 * time.Second: "1m05s", 61*time.Minute + time.Second: "61m01s", -time.Second: "0s",
	}
	for d, want := range cases {
		if got := string(FormatElapsed(nil, d)); got != want {
			t.Errorf("FormatElapsed(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestMotionGolden dumps the bar and wave in every mode at t=0 (and the
// bar idle), so palette and glyph changes show as reviewed diffs.
func TestMotionGolden(t *testing.T) {
	for _, m := range modes {
		th := newTheme(t, m.theme, m.caps)
		var b strings.Builder
		for _, bar := range []struct {
			name string
			bar  Bar
		}{{"working, t=0", Bar{Working: true, Moving: true}}, {"working, frozen", Bar{Working: true}}, {"idle", Bar{}}} {
			fmt.Fprintf(&b, "## activity bar, %s\n", bar.name)
			g := newGrid(30, 1)
			ActivityBar(g, 0, 30, th, bar.bar)
			b.WriteString(g.dump())
		}
		b.WriteString("## wave, t=0, elapsed 75s\n")
		g := newGrid(30, 1)
		DrawWave(g, 0, 0, th, Wave{Moving: true, Elapsed: 75 * time.Second})
		b.WriteString(g.dump())
		checkGolden(t, "motion-"+m.name+".golden", b.String())
	}
}
