package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/diffview"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The verification part of the diff view: what ran, its exit code, when
// it ran against the task's edits, the failing tests it named and the
// bounded output with its failure lines marked.

// verification is the task's last verification record from the diff
// answer, else the result record's for the task the screen follows.
func (a *App) verification() *diffview.Verification {
	if s := a.dv.sum; s != nil && s.Verification != nil {
		return s.Verification
	}
	r := a.td.result
	if r == nil || r.Task != a.dv.task || r.Verification == nil {
		return nil
	}
	raw, err := json.Marshal(r.Verification)
	if err != nil {
		return nil
	}
	v, err := diffview.ParseVerification(raw)
	if err != nil {
		return nil
	}
	return v
}

// verificationSummary is the one line the head of the view shows.
func (a *App) verificationSummary() line {
	v := a.verification()
	if v == nil {
		return line{span("verification: not run yet", theme.Muted)}
	}
	tok := theme.Warning
	switch v.Outcome {
	case "passed":
		tok = theme.Success
	case "failed":
		tok = theme.Error
	}
	l := line{span("verification: ", theme.Muted), bold(v.Outcome, tok)}
	if v.Ran {
		l = append(l, span(" · exit "+v.ExitText(), theme.Base))
	}
	l = append(l, span(" · "+v.When(), theme.Base))
	if a.dv.sum != nil && a.dv.sum.State == "cancelled" {
		l = append(l, span(" · partial: the task was cancelled", theme.Warning))
	}
	return append(l, span("  (v: details)", theme.Subtle))
}

func (a *App) verificationLines() []line {
	v := a.verification()
	if v == nil {
		return []line{{span("No verification has run for this task yet.", theme.Muted)}}
	}
	out := []line{field("outcome", v.Outcome), field("command", orUnknown(v.Command)), field("exit code", v.ExitText()), field("ran", v.When())}
	if v.Reason != "" {
		out = append(out, field("reason", v.Reason))
	}
	if a.dv.sum != nil && a.dv.sum.State == "cancelled" {
		out = append(out, line{span("! partial: the task was cancelled, so this outcome is not a finished task's", theme.Warning)})
	}
	if failing := v.FailingTests(); len(failing) > 0 {
		out = append(out, line{span(fmt.Sprintf("%-12s ", "failing"), theme.Muted), span(strings.Join(failing, ", "), theme.Error)})
	}
	if len(v.Output) == 0 {
		return append(out, line{span("no output was kept", theme.Muted)})
	}
	out = append(out, line{bold("Output (its last lines, as kept for evidence)", theme.Accent)})
	for _, l := range v.Output {
		if diffview.IsFailure(l) {
			out = append(out, line{span("× ", theme.Error), span(l, theme.Error)})
			continue
		}
		out = append(out, line{span("  ", theme.Base), span(l, theme.Panel)})
	}
	return out
}

func (a *App) drawVerification(x, y, w, rows int) {
	body := a.verificationLines()
	a.dv.verifyTop = min(a.dv.verifyTop, max(len(body)-rows, 0))
	for i := 0; i < rows && a.dv.verifyTop+i < len(body); i++ {
		a.p.put(x, y+i, w, body[a.dv.verifyTop+i])
	}
}
