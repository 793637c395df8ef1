package tui

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The completed block shows each changed file with the line counts the
// runtime reported, and "+? −?" only where a count is unknown.
func TestDiffSummaryShowsLineCounts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		caps  theme.Caps
		diff  string
		wants []string
	}{
		{"mixed", theme.Caps{Depth: theme.TrueColor}, `{"type":"diff_summary","pre_existing":[],"changed":[{"path":"src/lib.rs","kind":"modified","added":12,"removed":3},{"path":"tests/new.rs","kind":"added","added":7,"removed":0},{"path":"notes.txt","kind":"modified","pre_existing":true}]}`,
			[]string{"Changes · 3 files · +19 −3 · 1 unknown (+? −?)", "M src/lib.rs +12 −3", "A tests/new.rs +7 −0", "M notes.txt +? −? pre-existing"}},
		{"ascii", theme.Caps{ASCII: true}, `{"type":"diff_summary","changed":[{"path":"gone.rs","kind":"deleted","added":0,"removed":40}]}`,
			[]string{"Changes · 1 file · +0 -40", "D gone.rs +0 -40"}},
		{"all unknown", theme.Caps{Depth: theme.TrueColor}, `{"type":"diff_summary","changed":[{"path":"logo.png","kind":"modified"}]}`,
			[]string{"Changes · 1 file · line counts unknown (+? −?)", "M logo.png +? −?"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 100, 30, Options{Caps: tc.caps})
			running(h)
			h.records(`{"v":1,"type":"result","status":"completed","task":"tsk_1","verification":{"completed":true,"verification":"passed"},"diff":` + tc.diff + `}`)
			screen := strings.Join(h.screenText(), "\n")
			for _, w := range tc.wants {
				if tc.caps.ASCII {
					w = strings.ReplaceAll(w, "·", ".")
				}
				if !strings.Contains(screen, w) {
					t.Errorf("the screen lacks %q:\n%s", w, screen)
				}
			}
		})
	}
}
