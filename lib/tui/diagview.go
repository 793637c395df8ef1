package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The diagnostics view (Ctrl+D) shows the current task's diagnosis as the
// port's diagnose query answers it — lib/observe's, the one fluzo-observe
// diag prints — with the result record's error: errors with code, message
// and hint, budget meters, compactions, telemetry health, the trace ID and
// the estimated cost, which is unknown (never 0) when nothing priced it.

func diagAvail(a *App) string {
	switch {
	case a.phase == phaseLoading || a.phase == phaseBusy || a.phase == phaseLost:
		return "needs a connected workspace"
	case a.task.id == "":
		return "no task yet: diagnostics are per task"
	}
	return ""
}

func (a *App) openDiag() {
	a.diagScroll = 0
	a.askCorrelated(a.task.id)
	a.td.diagReq, a.td.diagRefused = a.send(port.Diagnose(a.task.id)), ""
	a.openDialog(dialogDiag)
}

func (a *App) diagKey(ev *tcell.EventKey) {
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlD:
		a.dialog = dialogNone
	case tcell.KeyUp:
		a.diagScroll = max(a.diagScroll-1, 0)
	case tcell.KeyDown:
		a.diagScroll++
	case tcell.KeyPgUp:
		a.diagScroll = max(a.diagScroll-10, 0)
	case tcell.KeyPgDn:
		a.diagScroll += 10
	case tcell.KeyHome:
		a.diagScroll = 0
	case tcell.KeyRune:
		if r := ev.Rune(); r == 'c' || r == 'y' {
			a.copyTrace()
		}
	}
}

func (a *App) drawDiag(l layout) {
	x, y, w, h := overlayBox(l, 20)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	a.p.put(x+2, y+1, w-4, line{bold("Diagnostics", theme.Accent), span("  "+safeLine(a.task.id), theme.Muted)})
	var body []line
	for _, b := range a.diagLines() {
		body = append(body, wrapLine(b, w-4)...)
	}
	rows := h - 3
	a.diagScroll = min(a.diagScroll, max(len(body)-rows, 0))
	for i := 0; i < rows && a.diagScroll+i < len(body); i++ {
		a.p.put(x+2, y+2+i, w-4, body[a.diagScroll+i])
	}
	a.putHint(x+2, y+h-1, w-4, " ↑/↓ pgup/pgdn scroll · c copy the trace ID · esc close ")
}

func heading(s string) line { return line{bold(s, theme.Accent)} }

func (a *App) diagLines() []line {
	d := a.td.diags[a.task.id]
	var out []line
	if d != nil {
		// First, so it is on screen at any size: the ID that finds the
		// task's spans and logs elsewhere.
		out = append(out, line{span(fmt.Sprintf("%-12s ", "trace"), theme.Muted), span(safeLine(traceOf(d)), theme.Base), span("  (c: copy)", theme.Subtle)})
	}
	out = append(out, heading("Errors"))
	out = append(out, a.errorLines(d)...)
	switch {
	case d == nil && a.td.diagRefused != "":
		return append(out, line{span("diagnosis: unknown, "+a.td.diagRefused, theme.Warning)})
	case d == nil:
		return append(out, line{span("diagnosis: unknown (asking the runtime…)", theme.Muted)})
	}
	out = append(out, heading("Budgets"))
	out = append(out, a.meterLines(a.task.id, d)...)
	out = append(out, heading("Compactions"))
	out = append(out, compactionLines(d)...)
	out = append(out, heading("Laya observations"))
	out = append(out, observationLines(d)...)
	out = append(out, heading("Telemetry"))
	out = append(out, telemetryLines(d)...)
	out = append(out, heading("Correlated events (this task's timeline)"))
	out = append(out, a.correlatedLines(d)...)
	out = append(out, heading("Consent"))
	return append(out, consentLines(d.Consent)...)
}

// consentLines: granted (when, how, fingerprint, each destination), not
// granted (revoked, or no consent event), or unknown from a runtime that
// does not say.
func consentLines(c *consentState) []line {
	switch {
	case c == nil:
		return []line{field("state", "unknown")}
	case c.State == "granted":
		out := []line{field("state", "granted "+safeLine(c.GrantedAt)+" ("+safeLine(c.How)+")"), field("fingerprint", safeLine(c.Fingerprint))}
		for _, d := range c.Destinations {
			out = append(out, field("  "+safeLine(d.Purpose), safeLine(d.URL)+" ("+safeLine(d.Class)+")"))
		}
		return out
	case c.State == "revoked":
		return []line{field("state", "not granted (revoked "+safeLine(c.RevokedAt)+")")}
	}
	return []line{field("state", "not granted (no consent event recorded)")}
}

// errorLines: the result's error with its code, message and hint, then
// the diagnosis's failures (operations, refusals, provider errors).
func (a *App) errorLines(d *diagRecord) []line {
	var out []line
	if r := a.td.result; r != nil && r.Task == a.task.id && r.Error != nil {
		out = append(out, field("code", safeLine(string(r.Error.Code))), field("message", safeLine(r.Error.Message)))
		if r.Error.Hint != "" {
			out = append(out, field("hint", safeLine(r.Error.Hint)))
		}
	}
	if d != nil {
		for _, f := range d.Failures {
			out = append(out, line{span("× ", theme.Error), span(safeLine(f), theme.Base)})
		}
	}
	if len(out) == 0 {
		out = append(out, line{span("none recorded", theme.Muted)})
	}
	return out
}

func telemetryLines(d *diagRecord) []line {
	t := d.Telemetry
	out := []line{field("archive", safeLine(orUnknown(t.Archive))+fmt.Sprintf(" · %d spans", t.Spans))}
	if h := t.Health; h != nil {
		health := safeLine(h.State)
		if h.Gaps {
			health += " · records were dropped"
		}
		out = append(out, field("health", health))
		for _, s := range h.Sinks {
			var drops int64
			for _, n := range s.Dropped {
				drops += n
			}
			out = append(out, field("  "+safeLine(s.Name), fmt.Sprintf("%s · %d dropped", safeLine(s.State), drops)))
		}
	} else {
		out = append(out, field("health", "unknown (no health record)"))
	}
	return append(out, field("cost", costText(d)))
}

// traceOf is the latest attempt's trace ID, shown whole so it can be
// selected and copied.
func traceOf(d *diagRecord) string {
	if n := len(d.Traces); n > 0 {
		return d.Traces[n-1]
	}
	return "unknown"
}

// costText: an estimate with its provenance, or unknown — never 0 for a
// cost nobody priced.
func costText(d *diagRecord) string {
	c := d.Telemetry.Cost
	prov := append([]string(nil), c.Provenance...)
	sort.Strings(prov)
	from := ""
	if len(prov) > 0 {
		from = " (" + safeLine(strings.Join(prov, ", ")) + ")"
	}
	if c.Amount == nil {
		return "unknown" + from
	}
	s := fmt.Sprintf("%.4f %s estimated", *c.Amount, safeLine(c.Currency))
	if !c.Complete {
		s += ", partial"
	}
	return s + from
}

// compactionLines: each compaction with its token counts (unknown when
// not measured) and the artifact that keeps what it summarised.
func compactionLines(d *diagRecord) []line {
	if len(d.Compactions) == 0 {
		return []line{{span("none", theme.Muted)}}
	}
	var out []line
	for _, c := range d.Compactions {
		out = append(out, field(safeLine(c.ID), tokensOrUnknown(c.BeforeTokens)+" → "+tokensOrUnknown(c.AfterTokens)+" tokens · artifact "+safeLine(orUnknown(c.Artifact))))
	}
	return out
}

func tokensOrUnknown(n *int64) string {
	if n == nil {
		return "unknown"
	}
	return fmt.Sprint(*n)
}

// observationLines label each one an observation: Laya never authorized,
// routed or blocked anything, so nothing here may read as an action.
func observationLines(d *diagRecord) []line {
	if len(d.Observations) == 0 {
		return []line{{span("none", theme.Muted)}}
	}
	var out []line
	for _, o := range d.Observations {
		out = append(out, line{span("observation ", theme.Muted), span(safeLine(o.Kind+": "+o.Label), theme.Base), span(" (not an action)", theme.Subtle)})
	}
	return out
}
