package tui

import "github.com/gdamore/tcell/v2"

// Mouse support complements the keys (TUI-REFERENCE §3.6): the wheel
// scrolls without changing focus; a click on an item selects it and
// focuses the conversation, a second click on a selected tool card
// expands or collapses it, a click in the composer focuses the composer.
// A click never answers an approval or a dialog. Ctrl+O releases the
// capture so the terminal's own selection works.

func (a *App) toggleMouse() {
	a.mouseOn = !a.mouseOn
	if a.mouseOn {
		a.scr.EnableMouse()
		a.setNotice("mouse on: wheel scrolls, click selects; ctrl+o releases it for terminal selection")
	} else {
		a.scr.DisableMouse()
		a.setNotice("mouse released: the terminal's own selection works")
	}
}

func (a *App) mouse(ev *tcell.EventMouse) {
	b := ev.Buttons()
	switch {
	case b&tcell.WheelUp != 0:
		a.scrollBy(-3)
	case b&tcell.WheelDown != 0:
		a.scrollBy(3)
	case b&tcell.Button1 != 0:
		// tcell repeats the button while it is held (drag): one click per press.
		if !a.button1Down {
			a.button1Down = true
			a.click(ev.Position())
		}
	case b&(tcell.Button1|tcell.Button2|tcell.Button3) == 0:
		a.button1Down = false
	}
}

func (a *App) click(x, y int) {
	l := a.layout()
	if a.dialog != dialogNone || l.tooSmall {
		return // dialogs answer keys only; a click never confirms anything
	}
	if a.toastClick(x, y) {
		return // a toast's button dismisses it; the rest of it covers what lies under
	}
	switch {
	case inside(l.composer, x, y):
		a.focus = focusComposer
	case inside(l.conv, x, y):
		i := a.itemAtRow(a.scroll+y-l.conv.y, l.textW)
		if i < 0 {
			return
		}
		if a.focus == focusChat && a.selected == i {
			a.toggleExpand()
			return
		}
		a.focus, a.selected = focusChat, i
		a.focusedAt = a.clock.Now() // re-arms approval keys, as focusing by key does
	}
}

// itemAtRow is the item drawn on row g of the conversation's row space
// (as the last frame laid it out), or -1 for history notes, the status
// block and empty space.
func (a *App) itemAtRow(g, width int) int {
	k := g - len(a.historyRows())
	ix := a.index(width)
	if k < 0 || k >= ix.total() {
		return -1
	}
	return ix.itemAt(k)
}

func inside(r rect, x, y int) bool { return x >= r.x && x < r.right() && y >= r.y && y < r.bottom() }
