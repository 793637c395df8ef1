package identity

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// A tcell screen is a Canvas: the wordmark drawn into tcell's simulation
// screen reads back with the reference glyphs and the exact styles.
func TestDrawsIntoATcellScreen(t *testing.T) {
	var _ Canvas = tcell.Screen(nil)
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(40, 5)
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.TrueColor})
	f := Frame{State: Completed, Moving: true}
	Wordmark(s, 3, 1, th, f)
	s.Show()
	want := newGrid(Width, Height)
	Wordmark(want, 0, 0, th, f)
	for r := range Height {
		for x := range Width {
			primary, style, width := s.Get(3+x, 1+r)
			if primary != string(want.glyphs[r*Width+x]) || style != want.style(x, r) || width != 1 {
				t.Fatalf("cell (%d,%d): %q %s width %d; want %q %s", x, r, primary, theme.DescribeStyle(style), width,
					want.glyphs[r*Width+x], theme.DescribeStyle(want.style(x, r)))
			}
		}
	}
}
