package tui

import (
	"fmt"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Drawing of the sessions view and an opened session's timeline. Both
// draw from the held window only; the footer says the view is read-only.

func (a *App) drawSessions(l layout) {
	x, y, w, h := overlayBox(l, 20)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	if a.sv.open != nil {
		a.drawSessionTimeline(x, y, w, h)
		return
	}
	a.p.put(x+2, y+1, w-4, line{bold("Sessions", theme.Accent), span("  workspace history · opening one is read-only", theme.Muted)})
	search := line{span("> ", theme.Accent), span(safeLine(a.sv.query), theme.Base)}
	if a.sv.query == "" {
		search = line{span("> ", theme.Accent), span("search by title or id", theme.Muted)}
	}
	a.p.put(x+2, y+2, w-4, search)
	a.p.put(x+2, y+3, w-4, line{span(sessionColumns("CREATED", "TASKS", "TITLE"), theme.Subtle)})
	win := a.sv.list
	rows := h - 5
	a.sv.listTop = clamp(scrollInto(a.sv.listTop, win.Sel(), rows), 0, max(win.Len()-1, 0))
	switch {
	case a.sv.refused != "" && win.Len() == 0:
	case !win.Loaded():
		a.p.put(x+2, y+4, w-4, line{span("asking the runtime for the sessions…", theme.Muted)})
	case win.Len() == 0:
		a.p.put(x+2, y+4, w-4, line{span("no session matches", theme.Muted)})
	}
	for i := 0; i < rows && a.sv.listTop+i < win.Len(); i++ {
		s, _ := win.Row(a.sv.listTop + i)
		tok := theme.Base
		if a.sv.listTop+i == win.Sel() {
			tok = theme.OnSelection
			a.p.fill(x+1, y+4+i, w-2, ' ', tok)
		}
		row := sessionColumns(s.CreatedAt.UTC().Format("2006-01-02 15:04"), sessionTaskStatus(s.Tasks), sessionTitle(s))
		a.p.put(x+2, y+4+i, w-4, line{span(truncate(row, w-4, "…"), tok)})
	}
	a.drawRefusal(x+2, y+4, w-4, rows, win.Len())
	a.putHint(x+2, y+h-1, w-4, " ↑/↓ select · enter open (read-only) · esc close ")
}

func sessionColumns(created, tasks, title string) string {
	return fmt.Sprintf("%-16s  %-24s %s", created, truncate(tasks, 24, "…"), title)
}

func sessionTitle(s sessionRow) string {
	t := s.Title
	if t == "" {
		t = "(untitled)"
	}
	if s.Synthetic {
		t += " [synthetic]"
	}
	return t + " · " + safeLine(s.ID)
}

func (a *App) drawSessionTimeline(x, y, w, h int) {
	s := a.sv.open
	a.p.put(x+2, y+1, w-4, line{bold("Session ", theme.Accent), span(sessionTitle(*s), theme.Base)})
	a.p.put(x+2, y+2, w-4, a.sessionTaskLine())
	a.p.put(x+2, y+3, w-4, line{span(timelineColumns("TIME", "ACTOR", "ACTION", "OUTCOME"), theme.Subtle)})
	rows := h - 5
	tl := a.sv.timeline
	switch {
	case a.sv.refused != "" && (tl == nil || tl.Len() == 0):
	case a.sv.sessionReq != "":
		a.p.put(x+2, y+4, w-4, line{span("reading the session…", theme.Muted)})
	case len(a.sv.tasks) == 0:
		a.p.put(x+2, y+4, w-4, line{span("this session has no tasks", theme.Muted)})
	case tl == nil || !tl.Loaded():
		a.p.put(x+2, y+4, w-4, line{span("reading the timeline…", theme.Muted)})
	case tl.Len() == 0:
		a.p.put(x+2, y+4, w-4, line{span("no recorded steps", theme.Muted)})
	}
	if tl != nil {
		a.sv.timelineTop = clamp(scrollInto(a.sv.timelineTop, tl.Sel(), rows), 0, max(tl.Len()-1, 0))
		for i := 0; i < rows && a.sv.timelineTop+i < tl.Len(); i++ {
			e, _ := tl.Row(a.sv.timelineTop + i)
			tok := theme.Base
			if e.Kind == "replay.gap" {
				tok = theme.Warning
			}
			if a.sv.timelineTop+i == tl.Sel() {
				tok = theme.OnSelection
				a.p.fill(x+1, y+4+i, w-2, ' ', tok)
			}
			outcome := e.Outcome
			if e.Policy != "" {
				outcome = joinDot(outcome, "policy "+e.Policy)
			}
			row := timelineColumns(e.TS.UTC().Format("15:04:05"), e.Actor, e.Action, outcome)
			a.p.put(x+2, y+4+i, w-4, line{span(truncate(row, w-4, "…"), tok)})
		}
	}
	n := 0
	if tl != nil {
		n = tl.Len()
	}
	a.drawRefusal(x+2, y+4, w-4, rows, n)
	hint := " ↑/↓ pgup/pgdn scroll · ←/→ task · esc back · read-only "
	if t, ok := a.sessionTask(); ok && resumable(t.State, t.Reason) {
		hint = " ↑/↓ scroll · ←/→ task · r resume (shows changes, asks) · esc back "
	}
	a.putHint(x+2, y+h-1, w-4, hint)
}

func (a *App) sessionTask() (taskRow, bool) {
	if a.sv.task < len(a.sv.tasks) {
		return a.sv.tasks[a.sv.task], true
	}
	return taskRow{}, false
}

// sessionTaskLine names the task whose timeline shows, its state and its
// place among the session's tasks.
func (a *App) sessionTaskLine() line {
	t, ok := a.sessionTask()
	if !ok {
		return line{span("no task", theme.Muted)}
	}
	n := fmt.Sprintf("task %d/%d", a.sv.task+1, len(a.sv.tasks))
	if a.sv.tasksMore {
		n += " (newest)"
	}
	// The position comes first: a long request is what gets cut.
	pos := ""
	if tl := a.sv.timeline; tl != nil && tl.Len() > 0 {
		pos = fmt.Sprintf("step %d", tl.Position()+1)
		if !tl.AtEnd() {
			pos += "+"
		}
		pos += " · "
	}
	return line{span(pos+n+" ", theme.Muted), span(safeLine(t.ID)+" ", theme.Base), span(safeLine(stateLabel(t.State, t.Reason)), stateToken(t.State)),
		span(" “"+t.Request+"”", theme.Muted)}
}

func timelineColumns(ts, actor, action, outcome string) string {
	return fmt.Sprintf("%-8s %-8s %-26s %s", ts, truncate(actor, 8, "…"), truncate(action, 26, "…"), outcome)
}

func joinDot(a, b string) string {
	if a == "" {
		return b
	}
	return a + " · " + b
}

// drawRefusal shows the view's last refusal, wrapped: in place of the
// rows when none arrived, else over the last rows of the window.
func (a *App) drawRefusal(x, y, w, rows, shown int) {
	if a.sv.refused == "" {
		return
	}
	msg := wrapLine(line{span(a.sv.refused, theme.Warning)}, w)
	at := y
	if shown > 0 {
		at = y + max(rows-len(msg), 0)
	}
	for i := 0; i < len(msg) && at+i < y+rows; i++ {
		a.p.fill(x-1, at+i, w+2, ' ', theme.Base)
		a.p.put(x, at+i, w, msg[i])
	}
}
