package tui

import "github.com/gdamore/tcell/v2"

// Terminal focus (focus reporting, CSI ?1004h). tcell cannot tell a
// terminal without focus reporting from a focused one, so focus is
// unknown — treated as focused — until a focus-out is actually seen
// (TUI-REFERENCE §4).
//
// While the terminal is known to be unfocused nobody watches the motion,
// so no timer runs: no animation frame and no elapsed tick (records and
// keys still repaint at once). Coming back re-arms the approval and
// dialog arming windows: keys typed in the instant the person switches
// back to the terminal, still meant for another window, cannot answer a
// card or confirm a dialog.
func (a *App) terminalFocus(ev *tcell.EventFocus) {
	if !ev.Focused {
		a.blurred = true
		return
	}
	a.blurred = false
	now := a.clock.Now()
	a.focusedAt = now
	if a.dialog != dialogNone {
		a.dialogAt = now
	}
}
