package tui

import "github.com/josecorral/fluzo/lib/tui/theme"

// composerTarget says where Enter sends the draft, so the destination of
// new input is never ambiguous (PRD §17.1, §30 Tasks): a new task, the
// running task as an intervention, or the queued message being edited.
func (a *App) composerTarget() (string, theme.Token) {
	// The short id, as toasts show it: the full one pushed the label off
	// an 80-column composer.
	task := safeLine(shortTask(a.task.id))
	if task == "" {
		task = "the starting task"
	} else {
		task = "task " + task
	}
	switch {
	case a.phase == phaseBusy || a.phase == phaseLost:
		return "→ nowhere: the workspace is read-only here", theme.Warning
	case a.comp.editing != "":
		return "→ edits queued message " + safeLine(a.comp.editing) + " of " + task, theme.Accent
	case a.taskActive():
		return "→ " + task + " (" + a.phase.String() + ") as an intervention", theme.Accent
	case a.phase == phaseLoading:
		return "→ new task, sent when the runtime answers", theme.Muted
	}
	return "→ new task", theme.Muted
}

// drawComposerTarget puts the target on the composer's bottom row, left
// of the YOLO badge.
func (a *App) drawComposerTarget(c rect) {
	label, tok := a.composerTarget()
	room := c.w - 4
	if a.yolo {
		room -= 7
	}
	a.p.put(c.x+4, c.y+c.h-1, room, line{span(truncate(label, room, "…"), tok)})
}
