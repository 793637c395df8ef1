package tui

import (
	"fmt"
	"time"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The diagnostics view's correlated events: the task's timeline as
// lib/observe's replay reads it (the port's replay query), each step with
// the attempt, operation and trace that tie it to the spans and logs.
// Only the newest diagEventRows are kept, however long the task ran: the
// pages are read forward and the older steps dropped.

const (
	diagEventRows  = 40
	diagEventPages = 20 // pages followed at most; older steps are then left out
)

type correlatedEvent struct {
	Kind      string    `json:"type"`
	Seq       int64     `json:"seq"`
	TS        time.Time `json:"ts"`
	Actor     string    `json:"actor"`
	Action    string    `json:"action"`
	Outcome   string    `json:"outcome"`
	Attempt   string    `json:"attempt"`
	Operation string    `json:"operation"`
	Trace     string    `json:"trace"`
}

type diagEvents struct {
	task    string
	req     string // the replay page asked for
	pages   int
	rows    []correlatedEvent
	dropped int  // older steps not kept
	done    bool // the last page answered
	cut     bool // stopped after diagEventPages pages
	refused string
}

func (a *App) askCorrelated(task string) {
	a.dg = diagEvents{task: task}
	a.dg.req = a.send(port.ReplayPage(task, 0, 0))
}

// diagEventsAck takes a replay page the view asked for.
func (a *App) diagEventsAck(ack *port.Ack) bool {
	if ack.Re == "" || ack.Re != a.dg.req {
		return false
	}
	a.dg.req = ""
	var page struct {
		Task    string            `json:"task"`
		Entries []correlatedEvent `json:"entries"`
		Next    int64             `json:"next"`
		More    bool              `json:"more"`
	}
	if !decodeData(ack.Data, &page) || page.Task != a.dg.task {
		a.dg.done = true
		return true
	}
	a.dg.pages++
	a.dg.rows = append(a.dg.rows, page.Entries...)
	if n := len(a.dg.rows) - diagEventRows; n > 0 {
		a.dg.dropped += n
		a.dg.rows = append(a.dg.rows[:0:0], a.dg.rows[n:]...)
	}
	switch {
	case !page.More:
		a.dg.done = true
	case a.dg.pages >= diagEventPages:
		a.dg.done, a.dg.cut = true, true
	default:
		a.dg.req = a.send(port.ReplayPage(a.dg.task, page.Next, 0))
	}
	return true
}

func (a *App) correlatedLines(d *diagRecord) []line {
	if a.dg.task == a.task.id && a.dg.refused != "" && len(a.dg.rows) == 0 {
		return []line{{span("unknown, "+a.dg.refused, theme.Warning)}}
	}
	if a.dg.task != a.task.id || !a.dg.done && len(a.dg.rows) == 0 {
		return []line{{span("asking the runtime for the task's timeline…", theme.Muted)}}
	}
	if len(a.dg.rows) == 0 {
		return []line{{span("none recorded", theme.Muted)}}
	}
	var out []line
	if a.dg.dropped > 0 || a.dg.cut {
		note := fmt.Sprintf("… %d older step(s) not shown", a.dg.dropped)
		if a.dg.cut {
			note += ", and more before them"
		}
		out = append(out, line{span(note+" (fluzo-observe replay "+safeLine(a.dg.task)+")", theme.Subtle)})
	}
	latest := traceOf(d)
	for _, e := range a.dg.rows {
		out = append(out, eventLine(e, latest))
	}
	return out
}

func eventLine(e correlatedEvent, latest string) line {
	if e.Kind == "replay.gap" {
		return line{span("! ", theme.Warning), span(safeLine(e.Action)+" · "+safeLine(e.Outcome), theme.Warning)}
	}
	l := line{span(e.TS.UTC().Format("15:04:05")+" ", theme.Muted), span(safeLine(e.Actor)+" ", theme.Accent), span(safeLine(e.Action), theme.Base)}
	if e.Outcome != "" {
		l = append(l, span(" → "+safeLine(e.Outcome), theme.Base))
	}
	ids := ""
	for _, id := range []string{e.Attempt, e.Operation} {
		if id != "" {
			ids += " " + safeLine(id)
		}
	}
	if e.Trace != "" && e.Trace != latest {
		ids += " trace " + safeLine(shortRev(e.Trace))
	}
	if ids != "" {
		l = append(l, span(" ·"+ids, theme.Subtle))
	}
	return l
}

func traceAvail(a *App) string {
	if d := a.td.diags[a.task.id]; d == nil || traceOf(d) == "unknown" {
		return "no trace ID known yet: open the diagnostics (ctrl+d)"
	}
	return ""
}

// copyTrace puts the trace ID on the clipboard (OSC 52, as the
// conversation's copy key does), only on this explicit key.
func (a *App) copyTrace() {
	d := a.td.diags[a.task.id]
	if d == nil || traceOf(d) == "unknown" {
		a.setNotice("no trace ID to copy: it is unknown")
		return
	}
	a.scr.SetClipboard([]byte(traceOf(d)))
	a.setNotice("trace ID copied to the clipboard (OSC 52)")
}
