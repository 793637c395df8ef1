package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// resultRows is the designed end-of-task block: completed shows the
// verification evidence and the diff summary; failed shows code, message
// and hint; blocked the reason and what to do; cancelled what stopped.
func resultRows(a *App, r *port.Result, body int) []line {
	var out []line
	add := func(l line) {
		for _, w := range wrapLine(l, body) {
			out = append(out, append(line{span("  ", theme.Base)}, w...))
		}
	}
	ver := "unknown"
	if r.Verification != nil {
		ver = safeLine(r.Verification.Verification)
	}
	switch a.phaseOf(r.Status) {
	case phaseCompleted:
		add(line{bold(a.p.glyph("✓ ", "[v] ")+"Completed", theme.Success), span(" · verification "+ver, theme.Success)})
	case phaseCancelled:
		add(line{bold(a.p.glyph("× ", "[x] ")+"Cancelled", theme.Warning), span(" · verification "+ver, theme.Muted)})
		add(line{span("Nothing more runs. Survivors and unknown outcomes, if any, are in fluzo replay "+r.Task+".", theme.Subtle)})
	case phaseBlocked:
		add(line{bold("Blocked", theme.Warning), span(" · "+safeLine(r.Status)+" "+safeLine(r.Reason), theme.Warning)})
		add(line{span(blockedHint(r.Status), theme.Subtle)})
	case phaseInterrupted:
		add(line{bold("Interrupted", theme.Warning), span(" · "+safeLine(r.Reason), theme.Warning)})
		add(line{span("ctrl+r resumes it as a new attempt (never automatic)", theme.Subtle)})
	default:
		add(line{bold(a.p.glyph("× ", "[x] ")+"Failed", theme.Error), span(" · "+safeLine(r.Status)+" · verification "+ver, theme.Error)})
		if r.Error != nil {
			add(line{span("code    ", theme.Muted), span(safeLine(string(r.Error.Code)), theme.Base)})
			add(line{span("message ", theme.Muted), span(safeLine(r.Error.Message), theme.Base)})
			if r.Error.Hint != "" {
				add(line{span("hint    ", theme.Muted), span(safeLine(r.Error.Hint), theme.Base)})
			}
		}
		add(line{span("ctrl+r resumes it as a new attempt", theme.Subtle)})
	}
	if r.Verification != nil && len(r.Verification.Evidence) > 0 {
		add(line{span("evidence ", theme.Muted), span(evidenceText(r.Verification.Evidence), theme.Base)})
	}
	if r.Summary != "" && !a.saidLast(r.Summary) {
		add(line{span(safeLine(r.Summary), theme.Base)})
	}
	if r.Diff != nil {
		if len(r.Diff.Changed) == 0 {
			add(line{span("No files changed", theme.Muted)})
		} else {
			add(line{span(a.changesHeading(r.Diff.Changed), theme.Muted)})
			for _, f := range r.Diff.Changed {
				add(a.fileRow(f, body-2))
			}
		}
		if len(r.Diff.PreExisting) > 0 {
			add(line{span("pre-existing changes (not the task's): "+safeLine(strings.Join(r.Diff.PreExisting, ", ")), theme.Subtle)})
		}
	}
	return out
}

// changesHeading counts the files and totals the line counts the runtime
// reported; when some are unknown it says what "+? −?" means rather than
// add them up as 0.
func (a *App) changesHeading(changed []port.DiffChange) string {
	minus := a.p.glyph("−", "-")
	added, removed, unknown := 0, 0, 0
	for _, f := range changed {
		if f.Added == nil || f.Removed == nil {
			unknown++
			continue
		}
		added, removed = added+*f.Added, removed+*f.Removed
	}
	files := "files"
	if len(changed) == 1 {
		files = "file"
	}
	s := fmt.Sprintf("Changes · %d %s · +%d %s%d", len(changed), files, added, minus, removed)
	switch {
	case unknown == len(changed):
		s = fmt.Sprintf("Changes · %d %s · line counts unknown (+? %s?)", len(changed), files, minus)
	case unknown > 0:
		s += fmt.Sprintf(" · %d unknown (+? %s?)", unknown, minus)
	}
	return s
}

func (a *App) phaseOf(status string) phase {
	switch status {
	case "completed":
		return phaseCompleted
	case "cancelled":
		return phaseCancelled
	case "blocked", "permission_required", "permission_denied", "budget_exhausted", "capacity_exhausted":
		return phaseBlocked
	case "interrupted", "unknown_outcome":
		return phaseInterrupted
	}
	return phaseFailed
}

func blockedHint(status string) string {
	switch status {
	case "permission_denied":
		return "A denial blocked required work: change the request, or allow the operation and resume (ctrl+r)."
	case "budget_exhausted":
		return "A budget ran out: raise harness limits in .fluzo, then resume (ctrl+r)."
	case "capacity_exhausted":
		return "No model capacity: wait, or check capacity_pools in .fluzo, then resume (ctrl+r)."
	}
	return "Resolve what it waits for, then resume (ctrl+r)."
}

// saidLast reports whether the newest assistant message already says s
// (the result's summary repeats the final message).
func (a *App) saidLast(s string) bool {
	for i := len(a.items) - 1; i >= 0; i-- {
		if it := a.items[i]; it.kind == itemAssistant {
			return strings.TrimSpace(it.text) == strings.TrimSpace(s)
		}
	}
	return false
}

// evidenceText shows the evidence's short facts as key=value pairs,
// sanitized; its output is in the command's tool card, not repeated here.
func evidenceText(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return safeLine(string(raw))
	}
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if _, isText := v.(string); isText && k != "command" {
			continue // output, hashes: long text belongs to the tool card
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+fmt.Sprint(m[k]))
	}
	return safeLine(strings.Join(parts, " "))
}
