package identity

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// At 256 colours the palette fit turns the pulsing amber into dusty rose
// (amber ×0.60 fits (135,95,95)) and the ×0.32 shadow into the surface's
// own grey, so the reference's non-RGB rule applies to the state tints
// (TUI-REFERENCE §2.3): named colours, DarkGray shadows. Running keeps its
// fitted gradient.
func TestTintsAt256UseTheNamedFallbacks(t *testing.T) {
	want := map[State]tcell.Color{
		Pending: theme.ANSIDarkGray, Ready: theme.ANSIDarkGray, Cancelled: theme.ANSIDarkGray,
		Waiting: theme.ANSIYellow, Blocked: theme.ANSIYellow, Stopping: theme.ANSIYellow,
		Completed: theme.ANSIGreen, Failed: theme.ANSIRed,
	}
	for _, name := range []string{theme.NameDefault, theme.NameHighContrast} {
		th := newTheme(t, name, theme.Caps{Depth: theme.Color256})
		for st, ink := range want {
			for _, age := range []time.Duration{0, 1500 * time.Millisecond, 3 * time.Second} {
				for col := 0; col < PixelWidth; col++ {
					f := Frame{State: st, Age: age, Moving: MotionActive(st, age, 60, false, false)}
					inkC, shadowC := columnColours(col, th, f)
					if got := inkC.terminal(th); got != ink {
						t.Fatalf("%s %v at %v col %d: ink %v, want %v", name, st, age, col, got, ink)
					}
					if got := shadowC.terminal(th); got != theme.ANSIDarkGray {
						t.Fatalf("%s %v at %v col %d: shadow %v, want DarkGray", name, st, age, col, got)
					}
				}
			}
		}
	}
	th := newTheme(t, theme.NameDefault, theme.Caps{Depth: theme.Color256})
	inkC, shadowC := columnColours(0, th, Frame{State: Running})
	if !inkC.isRGB() || !shadowC.isRGB() || inkC.terminal(th) == shadowC.terminal(th) {
		t.Fatalf("running at 256 lost its fitted gradient and relief: ink %v shadow %v", inkC.terminal(th), shadowC.terminal(th))
	}
}
