package tui

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// armingWindow is how long after an approval card appears — or after
// focus moves onto it — before its keys do anything, so a typing burst
// that was aimed at the composer can never answer it.
const armingWindow = 400 * time.Millisecond

// Why this design cannot be approved by accident:
//   - nothing is preselected and there is no "current choice": Enter and
//     Space have no approval meaning anywhere;
//   - only a, t and d answer, and only with the chat focused on the card
//     (Tab moves focus there), so keys typed in the composer never reach it;
//   - keys inside the arming window after the card appears or gains focus
//     are ignored, and so is anything that arrives inside a paste.

type permissionData struct {
	Operation string          `json:"operation"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	Rule      string          `json:"rule"`
	Reason    string          `json:"reason"`
}

type actionArgs struct {
	Argv []string          `json:"argv"`
	Path string            `json:"path"`
	Cwd  string            `json:"cwd"`
	Env  map[string]string `json:"env"`
}

// newApproval builds the card from a permission.requested event. The
// operation id is kept exact; what is shown is escaped one-line text.
func newApproval(ev *port.Event, now time.Duration) *approval {
	var d permissionData
	decodeData(ev.Data, &d)
	if d.Operation == "" {
		d.Operation = ev.Operation
	}
	var args actionArgs
	decodeData(d.Args, &args)
	ap := &approval{operation: d.Operation, tool: safeLine(d.Tool), rule: safeLine(d.Rule), shownAt: now}
	switch {
	case len(args.Argv) > 0:
		parts := make([]string, len(args.Argv))
		for i, s := range args.Argv {
			parts[i] = quoteArg(safeLine(s))
		}
		ap.action = strings.Join(parts, " ")
	case args.Path != "":
		ap.action = safeLine(args.Path)
	default:
		ap.action = safeLine(string(d.Args))
	}
	ap.cwd = "workspace root"
	if args.Cwd != "" {
		ap.cwd = safeLine(args.Cwd)
	}
	for k := range args.Env {
		ap.envNames = append(ap.envNames, safeLine(k))
	}
	if ap.rule == "" {
		ap.rule = safeLine(d.Reason)
	}
	if ap.rule == "" {
		ap.rule = "unknown"
	}
	return ap
}

func quoteArg(s string) string {
	if s == "" || strings.ContainsAny(s, " \"'") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

func (a *App) approvalLines(ap *approval, body int) []line {
	g := span(a.p.glyph("▐ ", "# "), theme.Warning)
	var out []line
	add := func(l line) {
		for _, w := range wrapLine(l, body) {
			out = append(out, append(line{g}, w...))
		}
	}
	status, tok := "waiting for your answer", theme.Warning
	switch ap.state {
	case approvalApproved:
		status, tok = "approved once", theme.Success
	case approvalApprovedTask:
		status, tok = "approved for this task", theme.Success
	case approvalDenied:
		status, tok = "denied", theme.Error
	case approvalStale:
		status, tok = "stale: the task moved on, nothing was approved", theme.Muted
	}
	add(line{bold(labelApproval, theme.Warning), span(" · "+ap.tool+" · ", theme.Subtle), bold(status, tok)})
	add(line{span("action  ", theme.Muted), span(ap.action, theme.Base)})
	add(line{span("cwd     ", theme.Muted), span(ap.cwd, theme.Base)})
	env := "none"
	if len(ap.envNames) > 0 {
		env = strings.Join(ap.envNames, ", ")
	}
	add(line{span("env     ", theme.Muted), span(env, theme.Base)})
	add(line{span("why     ", theme.Muted), span(ap.rule, theme.Base)})
	if ap.state == approvalPending {
		add(line{span("[a] Approve once", theme.Base), span("   ", theme.Base), span("[t] Approve for this task", theme.Base),
			span("   ", theme.Base), span("[d] Deny", theme.Base)})
		hint := "Tab focuses this card, then press a, t or d. Enter and Space never answer."
		if a.focus == focusChat && a.selectedItem() != nil && a.selectedItem().approval == ap {
			hint = "Press a, t or d. Enter and Space never answer."
		}
		add(line{span(hint, theme.Subtle)})
	}
	return out
}

// pendingApproval is the card waiting for an answer, if any.
func (a *App) pendingApproval() *item {
	for i := len(a.items) - 1; i >= 0; i-- {
		if it := a.items[i]; it.kind == itemApproval && it.approval.state == approvalPending {
			return it
		}
	}
	return nil
}

// answerKey handles a, t, d in chat focus on a pending card. It returns
// true when the key was an approval key (used or deliberately ignored).
func (a *App) answerKey(r rune) bool {
	if r != 'a' && r != 't' && r != 'd' {
		return false
	}
	it := a.selectedItem()
	if it == nil || it.kind != itemApproval || it.approval.state != approvalPending || it.approval.sent {
		return false
	}
	now := a.clock.Now()
	if now-it.approval.shownAt < armingWindow || now-a.focusedAt < armingWindow || a.pasting {
		a.setNotice("approval keys are armed " + armingWindow.String() + " after the card or focus appears")
		return true
	}
	ap := it.approval
	switch r {
	case 'a':
		a.send(port.Approve(ap.operation, "once"))
	case 't':
		a.send(port.Approve(ap.operation, "task"))
	case 'd':
		a.send(port.Deny(ap.operation))
	}
	ap.sent = true
	it.touch()
	return true
}

// resolveApproval applies permission.resolved (or an ack) to its card.
func (a *App) resolveApproval(operation, verdict, scope string) {
	for _, it := range a.items {
		if it.kind == itemApproval && it.approval.operation == operation {
			switch {
			case verdict == "deny":
				it.approval.state = approvalDenied
			case scope == "task":
				it.approval.state = approvalApprovedTask
			default:
				it.approval.state = approvalApproved
			}
			it.touch()
		}
	}
}

// staleApprovals marks every unanswered card stale (cancel, task end).
func (a *App) staleApprovals() {
	for _, it := range a.items {
		if it.kind == itemApproval && it.approval.state == approvalPending {
			a.markStale(it)
		}
	}
}

// markStale ends a card's wait: nothing was approved, and its tool card
// no longer says it waits.
func (a *App) markStale(it *item) {
	it.approval.state = approvalStale
	it.touch()
	if t := a.toolItem(it.approval.operation); t != nil {
		t.tool.op.Waiting = false
		t.touch()
	}
}
