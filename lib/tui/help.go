package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// helpRows is the Ctrl+G overlay: the keys of docs/TUI.md, short.
var helpRows = [][3]string{
	{"Global", "tab", "switch composer / conversation"},
	{"Global", "ctrl+c", "cancel the task; again: force stop (asks); idle: quit"},
	{"Global", "ctrl+y", "YOLO dialog"},
	{"Global", "ctrl+r", "resume an interrupted, blocked or failed task"},
	{"Global", "ctrl+b · ctrl+o · ctrl+l", "sidebar · mouse capture · redraw"},
	{"Global", "ctrl+end", "follow the output"},
	{"Composer", "enter", "submit (queued while a task runs)"},
	{"Composer", "shift+enter · ctrl+j", "newline"},
	{"Composer", "up / down", "history; up when empty edits a queued message"},
	{"Chat", "up/down j/k · pgup/pgdn", "scroll (up pauses following)"},
	{"Chat", "shift+up/down K/J", "select an item"},
	{"Chat", "g / G", "top (again: older history) / bottom and follow"},
	{"Chat", "space · c", "expand a tool card · copy (OSC 52)"},
	{"Approval", "a · t · d", "approve once · for this task · deny"},
	{"Approval", "enter · space", "never answer"},
	{"Mouse (ctrl+o)", "wheel · click", "scroll · select an item, again: expand a tool"},
}

func (a *App) helpKey(ev *tcell.EventKey) {
	if ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlG {
		a.dialog = dialogNone
	}
}

func (a *App) drawHelp(l layout) {
	w := min(70, l.w-4)
	h := min(len(helpRows)+4, l.h-2)
	x, y := (l.w-w)/2, (l.h-h)/2
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	a.p.put(x+2, y+1, w-4, line{bold("Keys", theme.Accent)})
	for i, r := range helpRows {
		if 2+i >= h-1 {
			break
		}
		a.p.put(x+2, y+2+i, w-4, line{span(r[0], theme.Subtle)})
		a.p.put(x+11, y+2+i, w-13, line{span(r[1], theme.Muted)})
		a.p.put(x+36, y+2+i, w-38, line{span(r[2], theme.Base)})
	}
	a.p.put(x+2, y+h-1, w-4, line{span(" esc or ctrl+g closes ", theme.Subtle)})
}
