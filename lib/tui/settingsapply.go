package tui

import (
	"strings"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/form"
)

// Operational changes apply to future work by default (PRD §26.2):
// applying new task budgets to the running task is an additional explicit
// step that shows the new limits beside what the task has used. Model and
// pool limits are not task budgets: the runtime's admission takes them at
// the apply itself (lowered limits drain, PRD §43.3).

// applySettings sends the settings screens' staged edits; with budgets
// changed while a task runs it first asks whether the task takes them.
func (a *App) applySettings(save bool) {
	edits := editsOf(a.cfg.form.Changes())
	o := port.ChangeOptions{Save: save}
	if a.taskActive() && a.task.id != "" && a.budgetEdits(edits) != nil {
		a.cfg.origin, a.cfg.sent, a.cfg.sentOpt = "settings", edits, o
		a.send(port.Diagnose(a.task.id)) // what the task has used, for the prompt
		a.cfg.prompt = settingsPrompt{kind: promptCurrentTask}
		a.settingsStatus("not applied yet: choose where the new limits apply", false)
		return
	}
	a.sendChange("settings", edits, o)
}

// budgetEdits are the edits of keys the runtime flags as task budgets.
func (a *App) budgetEdits(edits []port.ConfigEdit) []port.ConfigEdit {
	var out []port.ConfigEdit
	for _, e := range edits {
		for _, en := range a.cfg.entries {
			if en.Key == e.Key && en.TaskBudget {
				out = append(out, e)
			}
		}
	}
	return out
}

// currentTaskPrompt is drawn each frame, so the task's consumption
// appears when its diagnosis answers.
func (a *App) currentTaskPrompt() []string {
	used := "used so far: unknown (asking the runtime)"
	if d := a.td.diags[a.task.id]; d != nil {
		used = "used so far: " + d.turns() + " turns · " + d.tokens() + " tokens"
	}
	var limits []string
	for _, e := range a.budgetEdits(a.cfg.sent) {
		limits = append(limits, safeLine(e.Key)+" "+safeLine(entryValue(a.cfg.entries, e.Key))+" → "+safeLine(e.Value))
	}
	return []string{
		"Task " + safeLine(a.task.id) + " is running · " + used,
		"New limits: " + strings.Join(limits, ", "),
		"c: also apply them to the running task at its next turn (consumption is kept; a limit at or below it ends the task)",
		"f: future tasks only · esc: cancel (nothing is applied)",
	}
}

func entryValue(entries []form.Entry, key string) string {
	for _, e := range entries {
		if e.Key == key {
			return e.Value
		}
	}
	return "unknown"
}
