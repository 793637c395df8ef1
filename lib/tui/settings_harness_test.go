package tui

import "github.com/gdamore/tcell/v2"

// helpPageShowing pages the open help until s is on screen (entries move
// between pages as the registry grows).
func (h *harness) helpPageShowing(s string) {
	h.t.Helper()
	for range 10 {
		if h.contains(s) {
			return
		}
		h.keys(key(tcell.KeyPgDn))
	}
	h.mustShow(s)
}
