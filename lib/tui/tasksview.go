package tui

import (
	"fmt"
	"sort"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The tasks view (Ctrl+T) lists the session's tasks from the port's tasks
// query, each with its state label, elapsed time, turns and tokens (from
// its diagnosis); Enter opens a task's detail. Cancelling there is
// graceful; force stop only opens its confirmation, which starts on
// "keep the task running".

type tasksView struct {
	query  string
	sel    int
	top    int
	detail string // the task whose detail is open, "" for the list
	interv int    // the selected message of its intervention queue
	// scroll is the detail's first shown row: a task with many attempts
	// or queued messages, or the minimum size, holds more than one frame.
	scroll     int
	detailRows int // the detail's body rows at the last frame (a page)
}

func tasksAvail(a *App) string {
	if a.phase == phaseLoading || a.phase == phaseBusy || a.phase == phaseLost {
		return "needs a connected workspace"
	}
	return ""
}

func (a *App) openTasks() {
	a.tv = tasksView{}
	a.td.loaded, a.td.tasksRefused = false, ""
	a.send(port.Tasks())
	a.openDialog(dialogTasks)
}

// taskMatches are the listed tasks matching the search, best first.
func (a *App) taskMatches() []taskRow {
	type scored struct {
		t     taskRow
		score int
	}
	var list []scored
	for _, t := range a.td.tasks {
		if s, ok := fuzzyScore(a.tv.query, t.label()+" "+t.Request+" "+t.ID); ok {
			list = append(list, scored{t, s})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].score > list[j].score })
	out := make([]taskRow, len(list))
	for i, s := range list {
		out[i] = s.t
	}
	return out
}

func (a *App) tasksKey(ev *tcell.EventKey) {
	if a.tv.detail != "" {
		a.taskDetailKey(ev)
		return
	}
	matches := a.taskMatches()
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlT:
		a.dialog = dialogNone
	case tcell.KeyUp:
		a.tv.sel = max(a.tv.sel-1, 0)
	case tcell.KeyDown:
		a.tv.sel = min(a.tv.sel+1, max(len(matches)-1, 0))
	case tcell.KeyBackspace, tcell.KeyBackspace2, tcell.KeyCtrlH:
		if r := []rune(a.tv.query); len(r) > 0 {
			a.tv.query, a.tv.sel, a.tv.top = string(r[:len(r)-1]), 0, 0
		}
	case tcell.KeyCtrlU:
		a.tv.query, a.tv.sel, a.tv.top = "", 0, 0
	case tcell.KeyEnter:
		if a.tv.sel < len(matches) {
			a.tv.detail, a.tv.interv, a.tv.scroll = matches[a.tv.sel].ID, 0, 0
		}
	case tcell.KeyRune:
		if len(a.tv.query) < maxQuery {
			a.tv.query, a.tv.sel, a.tv.top = a.tv.query+string(ev.Rune()), 0, 0
		}
	}
}

// active says whether the runtime may still be running the task (a
// queued one has not started yet but will).
func (t taskRow) active() bool {
	switch t.State {
	case "running", "waiting", "stopping", "pending", "ready":
		return true
	}
	return false
}

func (t taskRow) label() string { return stateLabel(t.State, t.Reason) }

// stateLabel is the state a person reads, in every view: the store's
// pending and ready are both "queued" (not started yet), and a task
// blocked by restart recovery is "interrupted" (nothing runs it), as
// fluzo-store prints it.
func stateLabel(state, reason string) string {
	switch {
	case state == "pending" || state == "ready":
		return "queued"
	case state == "blocked" && reason == "interrupted":
		return "interrupted"
	}
	return state
}

func (a *App) detailTask() (taskRow, bool) {
	for _, t := range a.td.tasks {
		if t.ID == a.tv.detail {
			return t, true
		}
	}
	return taskRow{}, false
}

func (a *App) taskDetailKey(ev *tcell.EventKey) {
	t, ok := a.detailTask()
	switch {
	case ev.Key() == tcell.KeyEscape:
		a.tv.detail, a.tv.scroll = "", 0
	case ev.Key() == tcell.KeyPgDn:
		a.tv.scroll += max(a.tv.detailRows-1, 1) // clamped when drawn
	case ev.Key() == tcell.KeyPgUp:
		a.tv.scroll = max(a.tv.scroll-max(a.tv.detailRows-1, 1), 0)
	case ok && a.interventionKey(t.ID, ev):
	case !ok || ev.Key() != tcell.KeyRune:
	case ev.Rune() == 'c' && t.active():
		a.send(port.Cancel(t.ID))
		if t.ID == a.task.id {
			a.phase = phaseStopping
			a.staleApprovals()
		}
		a.setNotice("cancel sent to " + t.ID + ": it stops gracefully")
	case ev.Rune() == 'f' && t.active():
		a.stopTarget = t.ID
		a.openDialog(dialogForceStop)
	}
}

func (a *App) drawTasks(l layout) {
	if a.tv.detail != "" {
		a.drawTaskDetail(l)
		return
	}
	x, y, w, h := overlayBox(l, 20)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	a.p.put(x+2, y+1, w-4, line{bold("Tasks", theme.Accent), span("  session "+safeLine(orUnknown(a.task.session)), theme.Muted)})
	search := line{span("> ", theme.Accent), span(safeLine(a.tv.query), theme.Base)}
	if a.tv.query == "" {
		search = line{span("> ", theme.Accent), span("search by state, request or id", theme.Muted)}
	}
	a.p.put(x+2, y+2, w-4, search)
	a.p.put(x+2, y+3, w-4, line{span(taskColumns("STATE", "ELAPSED", "TURNS", "TOKENS", "REQUEST"), theme.Subtle)})
	matches := a.taskMatches()
	rows := h - 5
	a.tv.top = scrollInto(a.tv.top, a.tv.sel, rows)
	switch {
	case a.td.tasksRefused != "":
		for i, l := range wrapLine(line{span(a.td.tasksRefused, theme.Warning)}, w-4) {
			a.p.put(x+2, y+4+i, w-4, l)
		}
	case !a.td.loaded:
		a.p.put(x+2, y+4, w-4, line{span("asking the runtime for the tasks…", theme.Muted)})
	case len(matches) == 0:
		a.p.put(x+2, y+4, w-4, line{span("no task matches", theme.Muted)})
	}
	for i := 0; i < rows && a.tv.top+i < len(matches); i++ {
		t := matches[a.tv.top+i]
		d := a.td.diags[t.ID]
		row := taskColumns(safeLine(t.label()), t.elapsed(), d.turns(), d.tokens(), safeLine(t.Request))
		tok := stateToken(t.label())
		if a.tv.top+i == a.tv.sel {
			tok = theme.OnSelection
			a.p.fill(x+1, y+4+i, w-2, ' ', tok)
		}
		a.p.put(x+2, y+4+i, w-4, line{span(truncate(row, w-4, "…"), tok)})
	}
	a.putHint(x+2, y+h-1, w-4, " ↑/↓ select · enter detail · esc close ")
}

func taskColumns(state, elapsed, turns, tokens, request string) string {
	return fmt.Sprintf("%-12s %-8s %-6s %-8s %s", state, elapsed, turns, tokens, request)
}

// stateToken colours a state label; the label itself is always text.
func stateToken(state string) theme.Token {
	switch state {
	case "failed":
		return theme.Error
	case "waiting", "blocked", "stopping", "interrupted":
		return theme.Warning
	case "completed":
		return theme.Success
	}
	return theme.Base
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
