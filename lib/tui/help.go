package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The help overlay (Ctrl+G, F1) is the registry printed for the current
// context: the global keys, then those of the focused region (the
// conversation brings the approval keys with it), then the views' and
// the mouse's. It pages when the table is taller than the frame.

func (a *App) openHelp() {
	a.helpPage = 0
	a.openDialog(dialogHelp)
}

// helpScopes is the current context, in the order the table shows it.
func (a *App) helpScopes() []scope {
	if a.focus == focusChat {
		return []scope{scopeGlobal, scopeChat, scopeApproval, scopeView, scopeMouse}
	}
	return []scope{scopeGlobal, scopeComposer, scopeView, scopeMouse}
}

// helpRows are the registry entries of the context. Palette-only entries
// (no key of their own beyond another entry's) are left out: the composite
// Ctrl+C row already describes them.
func (a *App) helpRows() []*action {
	var out []*action
	for _, s := range a.helpScopes() {
		for i := range registry {
			act := &registry[i]
			if act.scope == s && (act.bind != nil || act.scope != scopeGlobal) {
				out = append(out, act)
			}
		}
	}
	return out
}

// helpLine is one row of the table: an entry's first row carries its
// context and keys, a long action wraps onto rows of its own.
type helpLine struct {
	scope, keys string
	text        line
}

const helpKeyW = 21

func helpTextW(l layout) int {
	_, _, w, _ := overlayBox(l, 20)
	return max(w-14-helpKeyW, 8)
}

func (a *App) helpLines(l layout) []helpLine {
	var out []helpLine
	for _, r := range a.helpRows() {
		for i, t := range wrapLine(line{span(r.title, theme.Base)}, helpTextW(l)) {
			hl := helpLine{text: t}
			if i == 0 {
				hl.scope, hl.keys = string(r.scope), r.keys
			}
			out = append(out, hl)
		}
	}
	return out
}

func (a *App) helpPerPage(l layout) int {
	_, _, _, h := overlayBox(l, 20)
	return max(h-4, 1)
}

func (a *App) helpPages(l layout) int {
	per := a.helpPerPage(l)
	return (len(a.helpLines(l)) + per - 1) / per
}

func (a *App) helpKey(ev *tcell.EventKey) {
	last := a.helpPages(a.layout()) - 1
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlG, tcell.KeyF1:
		a.dialog = dialogNone
	case tcell.KeyPgDn, tcell.KeyDown, tcell.KeyTab:
		a.helpPage = min(a.helpPage+1, last)
	case tcell.KeyPgUp, tcell.KeyUp, tcell.KeyBacktab:
		a.helpPage = max(a.helpPage-1, 0)
	case tcell.KeyHome:
		a.helpPage = 0
	case tcell.KeyEnd:
		a.helpPage = last
	}
}

func (a *App) drawHelp(l layout) {
	x, y, w, h := overlayBox(l, 20)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	per, pages := a.helpPerPage(l), a.helpPages(l)
	page := min(a.helpPage, pages-1)
	a.p.put(x+2, y+1, w-4, line{bold("Keys", theme.Accent), span(fmt.Sprintf("  page %d/%d", page+1, pages), theme.Muted)})
	rows := a.helpLines(l)
	for i := 0; i < per && page*per+i < len(rows); i++ {
		r := rows[page*per+i]
		ry := y + 2 + i
		a.p.put(x+2, ry, 9, line{span(r.scope, theme.Subtle)})
		a.p.put(x+11, ry, helpKeyW, line{span(r.keys, theme.Muted)})
		a.p.put(x+12+helpKeyW, ry, w-14-helpKeyW, r.text)
	}
	a.putHint(x+2, y+h-1, w-4, " pgup/pgdn page · esc or ctrl+g closes ")
}

// fitHint fits a view's key hint (segments joined by " · ", the most
// useful first) into w cells. At narrow sizes the parenthesised remarks go
// first, then the last segments, but the one saying how to close the view
// (it starts with "esc") always stays: at the minimum size a person must
// still see the way out.
func fitHint(hint string, w int) string {
	segs := strings.Split(strings.TrimSpace(hint), " · ")
	join := func() string { return " " + strings.Join(segs, " · ") + " " }
	if cellWidth(join())-1 > w {
		for i, s := range segs {
			if open := strings.Index(s, " ("); open > 0 && strings.HasSuffix(s, ")") {
				segs[i] = s[:open]
			}
		}
	}
	for cellWidth(join())-1 > w { // the closing space may go
		drop := -1
		for i := len(segs) - 1; i >= 0; i-- {
			if !strings.HasPrefix(segs[i], "esc") {
				drop = i
				break
			}
		}
		if drop < 0 || len(segs) == 1 {
			break
		}
		segs = append(segs[:drop], segs[drop+1:]...)
	}
	if j := join(); cellWidth(j)-1 == w {
		return j[:len(j)-1]
	}
	return truncate(join(), w, "…")
}

// putHint draws a view's key hint on its bottom border.
func (a *App) putHint(x, y, w int, hint string) {
	a.p.put(x, y, w, line{span(fitHint(hint, w), theme.Subtle)})
}
