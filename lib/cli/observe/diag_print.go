package observe

import (
	"fmt"
	"io"
	"strings"

	"github.com/josecorral/fluzo/lib/observe"
)

func printDiag(w io.Writer, d *observe.Diagnosis) {
	state := string(d.Task.State)
	if d.Interrupted {
		state = "interrupted"
	}
	fmt.Fprintf(w, "task %s  session %s  state %s%s\n", d.Task.ID, d.Task.SessionID, state, reasonSuffix(d.Task.Reason))
	if d.Interrupted {
		fmt.Fprintf(w, "interrupted: the owner stopped while the task ran; continue it with '%s'\n", d.Resume)
	}
	fmt.Fprintf(w, "request: %s\n", d.Task.Request)
	fmt.Fprintf(w, "traces: %s\n", dash(strings.Join(d.Traces, " ")))
	fmt.Fprintf(w, "attempts: %d\n", len(d.Attempts))
	for _, a := range d.Attempts {
		ended := "running"
		if a.EndedAt != nil {
			ended = a.EndedAt.UTC().Format("2006-01-02T15:04:05Z")
		}
		fmt.Fprintf(w, "  #%d %s %s%s trace %s started %s ended %s", a.Number, a.ID, a.State, reasonSuffix(a.Reason),
			dash(a.TraceID), a.StartedAt.UTC().Format("2006-01-02T15:04:05Z"), ended)
		if a.PreviousID != "" {
			fmt.Fprintf(w, " resumes %s", a.PreviousID)
		}
		fmt.Fprintln(w)
		for _, o := range a.Operations {
			// MCP tool names (mcp__SERVER__TOOL) are long: shown whole, not cut.
			fmt.Fprintf(w, "    %s %-16s %-16s %s\n", o.ID, clean(o.Tool, 64), o.State, clean(o.Verdict(), 60))
		}
	}
	var parts []string
	for _, k := range sortedKeys(d.Operations.ByState) {
		parts = append(parts, fmt.Sprintf("%s %d", k, d.Operations.ByState[k]))
	}
	fmt.Fprintf(w, "operations: %d (%s)\n", d.Operations.Total, dash(strings.Join(parts, ", ")))
	printSandbox(w, d.Sandbox)
	fmt.Fprintf(w, "consent: %s\n", clean(d.Consent.Text(), 400))
	fmt.Fprintf(w, "failures: %d\n", len(d.Failures))
	for _, f := range d.Failures {
		fmt.Fprintf(w, "  %s\n", clean(f.String(), 200))
	}
	u := d.Usage
	if u.AllUnknown() {
		fmt.Fprintf(w, "usage: %d request(s), tokens unknown\n", u.Requests)
	} else {
		fmt.Fprintf(w, "usage: %d request(s), input %d, output %d tokens", u.Requests, u.InputTokens, u.OutputTokens)
		if !u.Complete {
			fmt.Fprintf(w, " (partial: %d request(s) with unknown usage)", u.UnknownRequests)
		}
		fmt.Fprintln(w)
	}
	printCost(w, d.Telemetry.Cost)
	fmt.Fprintf(w, "budget events: %d\n", len(d.Budget))
	for _, b := range d.Budget {
		fmt.Fprintf(w, "  %s\n", clean(string(b), 200))
	}
	fmt.Fprintf(w, "compactions: %d\n", len(d.Compactions))
	for _, c := range d.Compactions {
		fmt.Fprintf(w, "  %s %s → %s tokens\n", c.ID, tokenStr(c.BeforeTokens), tokenStr(c.AfterTokens))
	}
	fmt.Fprintf(w, "laya observations: %d (observations only; they never authorize, route or block)\n", len(d.Observations))
	for _, o := range d.Observations {
		fmt.Fprintf(w, "  %s %s %s\n", o.ID, clean(o.Kind, 40), clean(string(o.Data), 160))
	}
	t := d.Telemetry
	fmt.Fprintf(w, "telemetry: %d span(s) (%d error), %d log(s) in %s", t.Spans, t.ErrorSpans, t.Logs, t.Archive)
	if t.Incomplete > 0 {
		fmt.Fprintf(w, ", %d incomplete record(s)", t.Incomplete)
	}
	fmt.Fprintln(w)
	if h := t.Health; h != nil {
		var drops int64
		for _, s := range h.Sinks {
			drops += s.DroppedTotal()
		}
		fmt.Fprintf(w, "telemetry health: %s, gaps %v, %d dropped record(s) (last snapshot, pid %d)\n", h.State, h.Gaps, drops, h.PID)
	}
	if t.Note != "" {
		fmt.Fprintf(w, "note: %s\n", t.Note)
	}
}

func tokenStr(p *int64) string {
	if p == nil {
		return "unknown"
	}
	return fmt.Sprint(*p)
}

// printSandbox says how the task's commands were confined, and names
// every protected path a command changed.
func printSandbox(w io.Writer, sb observe.CommandSandbox) {
	var modes []string
	for _, m := range sortedKeys(sb.Modes) {
		modes = append(modes, fmt.Sprintf("%s %d", m, sb.Modes[m]))
	}
	fmt.Fprintf(w, "sandbox: %d command(s) (%s)", sb.Commands, dash(strings.Join(modes, ", ")))
	if sb.ABI > 0 {
		fmt.Fprintf(w, ", Landlock ABI %d, network %s, protected paths %s", sb.ABI, clean(sb.Network, 10), clean(sb.Protected, 20))
	}
	fmt.Fprintln(w)
	for _, c := range sb.ProtectedChanged {
		fmt.Fprintf(w, "  protected path changed: %s\n", clean(string(c), 200))
	}
}
