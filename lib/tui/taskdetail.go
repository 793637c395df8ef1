package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The task detail: request, attempts, operations, verification and the
// budgets used against their limits, all from the port's answers.

func (a *App) drawTaskDetail(l layout) {
	x, y, w, h := overlayBox(l, 20)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	t, _ := a.detailTask()
	a.p.put(x+2, y+1, w-4, line{bold("Task "+safeLine(t.ID), theme.Accent), span("  "+safeLine(t.label()), stateToken(t.label()))})
	var body []line
	for _, l := range a.taskDetailLines(t) {
		body = append(body, wrapLine(l, w-4)...)
	}
	rows := max(h-3, 1)
	a.tv.detailRows = rows
	a.tv.scroll = max(min(a.tv.scroll, len(body)-rows), 0)
	for i := 0; i < rows && a.tv.scroll+i < len(body); i++ {
		row := body[a.tv.scroll+i]
		// The edge rows say what is hidden and which key shows it.
		if above := a.tv.scroll; i == 0 && above > 0 {
			row = line{span(fmt.Sprintf("… %d row(s) above · pgup", above+1), theme.Muted)}
		} else if below := len(body) - a.tv.scroll - rows; i == rows-1 && below > 0 {
			row = line{span(fmt.Sprintf("… %d more row(s) · pgdn", below+1), theme.Muted)}
		}
		a.p.put(x+2, y+2+i, w-4, row)
	}
	hint := " esc back "
	if t.active() {
		hint = " c cancel (graceful) · f force stop (asks) · esc back "
	}
	a.putHint(x+2, y+h-1, w-4, hint)
}

func field(name, value string) line {
	return line{span(fmt.Sprintf("%-12s ", name), theme.Muted), span(value, theme.Base)}
}

func (a *App) taskDetailLines(t taskRow) []line {
	d := a.td.diags[t.ID]
	out := []line{field("request", safeLine(t.Request)), field("elapsed", t.elapsed())}
	if t.Reason != "" {
		out = append(out, field("reason", safeLine(t.Reason)))
	}
	out = append(out, a.interventionLines(t.ID)...)
	if d == nil {
		return append(out, field("diagnosis", "unknown (not answered yet)"))
	}
	for _, at := range d.Attempts {
		out = append(out, field(fmt.Sprintf("attempt %d", at.Number), strings.TrimSpace(safeLine(at.State+" "+at.Reason))+" · trace "+safeLine(orUnknown(at.Trace))))
	}
	out = append(out, field("operations", opSummary(d)))
	out = append(out, field("verification", a.verificationOf(t.ID)))
	// The budgets are the diagnostics view's meters (one implementation):
	// the live budget while the task runs, so active time and tokens are
	// measured against their limits rather than unknown.
	out = append(out, a.meterLines(t.ID, d)...)
	return out
}

func opSummary(d *diagRecord) string {
	states := make([]string, 0, len(d.Operations.ByState))
	for s, n := range d.Operations.ByState {
		states = append(states, fmt.Sprintf("%d %s", n, s))
	}
	sort.Strings(states)
	s := fmt.Sprintf("%d", d.Operations.Total)
	if len(states) > 0 {
		s += " (" + safeLine(strings.Join(states, ", ")) + ")"
	}
	if d.Operations.Unknown > 0 {
		s += fmt.Sprintf(" · %d unknown outcome(s)", d.Operations.Unknown)
	}
	return s
}

// verificationOf is the result record's verification for the task the
// screen followed; for other tasks the port has not said, so unknown.
func (a *App) verificationOf(task string) string {
	r := a.td.result
	if r == nil || r.Task != task || r.Verification == nil {
		return "unknown"
	}
	v := safeLine(r.Verification.Verification)
	if r.Verification.Completed {
		v += " · completed"
	}
	return v
}

func withUnit(v, unit string) string {
	if v == "unknown" {
		return v
	}
	return v + unit
}
