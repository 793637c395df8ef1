package identity

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// sink is a canvas that keeps only the last cell, so the benchmark
// measures the identity and not a recorder.
type sink struct {
	r  rune
	st tcell.Style
}

func (s *sink) SetContent(_, _ int, r rune, _ []rune, st tcell.Style) { s.r, s.st = r, st }

func BenchmarkWordmarkFrame(b *testing.B) {
	th := newTheme(b, theme.NameDefault, theme.Caps{Depth: theme.TrueColor})
	var c sink
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Wordmark(&c, 0, 0, th, Frame{State: Running, Age: time.Duration(i) * time.Millisecond, Moving: true})
	}
}

func BenchmarkMotionFrame(b *testing.B) {
	th := newTheme(b, theme.NameHighContrast, theme.Caps{Depth: theme.Color256})
	var c sink
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d := time.Duration(i) * time.Millisecond
		ActivityBar(&c, 0, 160, th, Bar{T: d, Working: true, Moving: true})
		DrawWave(&c, 0, 1, th, Wave{T: d, Moving: true, Elapsed: d})
		Compact(&c, 0, 2, th, Frame{State: Waiting, Age: d, Moving: true})
	}
}

// The frame path allocates nothing, in every mode.
func TestFramesDoNotAllocate(t *testing.T) {
	var c sink
	for _, m := range modes {
		th := newTheme(t, m.theme, m.caps)
		allocs := testing.AllocsPerRun(50, func() {
			f := Frame{State: Completed, Age: 300 * time.Millisecond, Moving: true}
			Wordmark(&c, 0, 0, th, f)
			Compact(&c, 0, 3, th, f)
			ActivityBar(&c, 4, 120, th, Bar{T: time.Second, Working: true, Moving: true})
			DrawWave(&c, 0, 5, th, Wave{T: time.Second, Moving: true, Elapsed: 90 * time.Second})
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per frame", m.name, allocs)
		}
	}
}
