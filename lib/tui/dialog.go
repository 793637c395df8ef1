package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Every dialog opens on its safe choice (index 0): keep editing, keep
// NORMAL, keep the task running, do not resume. Confirming the other
// choice needs a deliberate move plus Enter, or its letter, and keys in
// the arming window after the dialog opens are ignored, so key repeat or
// a paste cannot confirm. Closing a dialog never cancels anything.
type dialogSpec struct {
	title   string
	body    []string
	choices [2]string
	letter  rune // confirms choice 1 directly
}

func (a *App) dialogSpec() dialogSpec {
	switch a.dialog {
	case dialogQuit:
		return dialogSpec{"Quit fluzo-tui?", []string{"The draft in the composer will be lost."}, [2]string{"Keep editing", "Discard and quit"}, 'q'}
	case dialogYolo:
		if a.yolo {
			return dialogSpec{"Turn YOLO off?", []string{"Operations that ask will ask again."}, [2]string{"Keep YOLO on", "Back to NORMAL"}, 'n'}
		}
		return dialogSpec{"Turn YOLO on for this session?", []string{
			"Changes: operations that would ask for approval run without asking.",
			"Still holds: explicit denials, budgets, limits, confinement and",
			"version checks. Audited as a yolo event; never restored on resume."},
			[2]string{"Keep NORMAL", "Turn YOLO on"}, 'y'}
	case dialogForceStop:
		if a.phase != phaseStopping {
			return dialogSpec{"Force stop the task?", []string{"Ctrl+C cancels gracefully. Forcing kills its processes now;", "survivors and unknown outcomes are recorded."}, [2]string{"Keep the task running", "Force stop"}, 'f'}
		}
		return dialogSpec{"Force stop the task?", []string{"The task is stopping gracefully. Forcing kills its processes now;", "survivors and unknown outcomes are recorded."}, [2]string{"Keep stopping gracefully", "Force stop"}, 'f'}
	case dialogResume:
		return a.resumeSpec()
	}
	return dialogSpec{}
}

func (a *App) openDialog(k dialogKind) {
	if k == dialogForceStop && a.dialog != dialogTasks {
		a.stopTarget = "" // the current task's, unless the tasks view named one
	}
	a.dialog, a.dialogChoice, a.dialogAt = k, 0, a.clock.Now()
}

func (a *App) dialogKey(ev *tcell.EventKey) {
	switch a.dialog {
	case dialogHelp:
		a.helpKey(ev)
		return
	case dialogPalette:
		a.paletteKey(ev)
		return
	case dialogTasks:
		a.tasksKey(ev)
		return
	case dialogDiag:
		a.diagKey(ev)
		return
	case dialogSessions:
		a.sessionsKey(ev)
		return
	case dialogDiff:
		a.diffKey(ev)
		return
	case dialogSettings:
		a.settingsKey(ev)
		return
	case dialogTheme:
		a.themeKey(ev)
		return
	case dialogDevMenu:
		a.devMenuKey(ev)
		return
	}
	spec := a.dialogSpec()
	armed := a.clock.Now()-a.dialogAt >= armingWindow
	switch ev.Key() {
	case tcell.KeyEscape:
		a.dialog = a.dialogBack()
	case tcell.KeyLeft, tcell.KeyRight, tcell.KeyTab, tcell.KeyBacktab:
		a.dialogChoice = 1 - a.dialogChoice
	case tcell.KeyEnter:
		if armed {
			a.confirm(a.dialogChoice)
		}
	case tcell.KeyCtrlC:
		if a.dialog == dialogQuit && a.layout().tooSmall {
			a.quitting = true
		}
	case tcell.KeyRune:
		if ev.Rune() == spec.letter && armed {
			a.confirm(1)
		}
	}
}

func (a *App) confirm(choice int) {
	k := a.dialog
	a.dialog = a.dialogBack()
	if choice == 0 {
		return
	}
	switch k {
	case dialogQuit:
		a.quitting = true
	case dialogYolo:
		a.send(port.SetYolo(!a.yolo))
	case dialogForceStop:
		target := a.task.id
		if a.stopTarget != "" {
			target = a.stopTarget
		}
		a.send(port.ForceStop(target))
	case dialogResume:
		a.confirmResume()
	}
}

// dialogBack is where closing a dialog returns: a resume confirmation
// asked from the sessions view returns there, everything else to the
// conversation.
func (a *App) dialogBack() dialogKind {
	if a.dialog == dialogResume {
		return a.rs.back
	}
	return dialogNone
}

func (a *App) drawDialog(l layout) {
	spec := a.dialogSpec()
	w := 64
	if w > l.w-4 {
		w = l.w - 4
	}
	h := len(spec.body) + 6
	x, y := (l.w-w)/2, (l.h-h)/2
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	a.p.put(x+2, y+1, w-4, line{bold(spec.title, theme.Accent)})
	for i, b := range spec.body {
		a.p.put(x+2, y+2+i, w-4, line{span(b, theme.Base)})
	}
	col := x + 2
	for i, c := range spec.choices {
		label := "[ " + c + " ]"
		tok := theme.Separator
		if i == a.dialogChoice {
			label = "[>" + c + "<]"
			tok = theme.Highlight
		}
		col += a.p.put(col, y+h-3, w-4, line{bold(label, tok)}) + 3
	}
	a.p.put(x+2, y+h-2, w-4, line{span("←/→ choose · enter confirm · "+string(spec.letter)+" "+spec.choices[1]+" · esc close", theme.Subtle)})
}

// frame draws a rounded (ASCII: plain) border.
func (a *App) frame(x, y, w, h int, tok theme.Token) {
	hz, vt := a.p.glyph("─", "-"), a.p.glyph("│", "|")
	corners := [4]string{a.p.glyph("╭", "+"), a.p.glyph("╮", "+"), a.p.glyph("╰", "+"), a.p.glyph("╯", "+")}
	for i := 1; i < w-1; i++ {
		a.p.put(x+i, y, 1, line{span(hz, tok)})
		a.p.put(x+i, y+h-1, 1, line{span(hz, tok)})
	}
	for r := 1; r < h-1; r++ {
		a.p.put(x, y+r, 1, line{span(vt, tok)})
		a.p.put(x+w-1, y+r, 1, line{span(vt, tok)})
	}
	a.p.put(x, y, 1, line{span(corners[0], tok)})
	a.p.put(x+w-1, y, 1, line{span(corners[1], tok)})
	a.p.put(x, y+h-1, 1, line{span(corners[2], tok)})
	a.p.put(x+w-1, y+h-1, 1, line{span(corners[3], tok)})
}
