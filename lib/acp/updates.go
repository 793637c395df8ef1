package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
)

// translator turns the port's records into session updates. The same
// translation serves a live prompt and session/load's replay, so an
// editor shows a loaded session as it saw it run.
type translator struct {
	root string
	// live: assistant text arrives as deltas, and the final message is
	// built from the result record; a replay has neither.
	live bool
	// streamed: content deltas were sent since the last message event,
	// so the event's full text would repeat them.
	streamed bool
	// ops answers a task's operations (arguments and results), which the
	// operation events do not carry; refresh asks the port again.
	ops     func(task string, refresh bool) map[string]opInfo
	verdict map[string]verdict // per task: the last verification.result
	changed map[string][]string
	verify  map[string]string // per task: its verification command
}

// verdict is a verification outcome as events and results carry it.
type verdict struct {
	Completed    bool   `json:"completed"`
	Verification string `json:"verification"`
	Reason       string `json:"reason"`
	Evidence     struct {
		Command string `json:"command"`
	} `json:"evidence"`
}

func newTranslator(root string, live bool, ops func(string, bool) map[string]opInfo) *translator {
	return &translator{root: root, live: live, ops: ops, verdict: map[string]verdict{}, changed: map[string][]string{}, verify: map[string]string{}}
}

// delta translates a live update: assistant text and reasoning stream,
// and a call sent to its backend is in progress.
func (t *translator) delta(l *port.Live) []sdk.SessionUpdate {
	switch {
	case l.Type == "live.operation" && l.State == "dispatched" && l.Operation != "":
		// The durable operation.dispatched comes only with the outcome;
		// this is what tells the editor a long command is running.
		return []sdk.SessionUpdate{sdk.UpdateToolCall(sdk.ToolCallId(l.Operation), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress))}
	case l.Type != "live.delta" || l.Text == "":
		return nil
	case l.Kind == "content":
		t.streamed = true
		return []sdk.SessionUpdate{sdk.UpdateAgentMessageText(l.Text)}
	case l.Kind == "reasoning":
		return []sdk.SessionUpdate{sdk.UpdateAgentThoughtText(l.Text)}
	}
	return nil
}

// event translates one durable event.
func (t *translator) event(ev *port.Event) []sdk.SessionUpdate {
	switch ev.Type {
	case core.EvTaskCreated:
		return t.taskCreated(ev)
	case core.EvMessage:
		return t.message(ev)
	case core.EvOperationRequested:
		return t.opRequested(ev)
	case core.EvOperationDecision:
		return t.opDecision(ev)
	case core.EvOperationDispatched:
		return []sdk.SessionUpdate{sdk.UpdateToolCall(sdk.ToolCallId(ev.Operation), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress))}
	case core.EvOperationResult:
		return t.opResult(ev)
	case core.EvOperationUnknown:
		return []sdk.SessionUpdate{sdk.UpdateToolCall(sdk.ToolCallId(ev.Operation), sdk.WithUpdateStatus(sdk.ToolCallStatusFailed),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("Outcome unknown: the tool backend went away after the call may have reached it. Fluzo never retries it on its own."))}))}
	case core.EvVerification:
		var v verdict
		json.Unmarshal(ev.Data, &v)
		t.verdict[ev.Task] = v
		return t.plan(ev.Task, v.Completed, v.Verification != "")
	case core.EvDiffSummary:
		t.changed[ev.Task] = changedPaths(ev.Data)
	case core.EvTaskState:
		return t.taskEnded(ev)
	}
	return nil
}

func (t *translator) taskCreated(ev *port.Event) []sdk.SessionUpdate {
	var d struct {
		Request string `json:"request"`
		Verify  string `json:"verify"`
	}
	json.Unmarshal(ev.Data, &d)
	t.verify[ev.Task] = d.Verify
	var out []sdk.SessionUpdate
	if !t.live && d.Request != "" {
		// The editor shows its own prompt live; a replay must say it.
		out = append(out, sdk.UpdateUserMessageText(d.Request))
	}
	return append(out, t.plan(ev.Task, false, false)...)
}

// plan is the task's contract as a two-entry plan: do the work, then pass
// the verification command (Fluzo decides completion by it).
func (t *translator) plan(task string, verified, verifying bool) []sdk.SessionUpdate {
	work, check := sdk.PlanEntryStatusInProgress, sdk.PlanEntryStatusPending
	if verifying {
		work, check = sdk.PlanEntryStatusCompleted, sdk.PlanEntryStatusInProgress
	}
	if verified {
		check = sdk.PlanEntryStatusCompleted
	}
	what := "Verify with the configured or requested command"
	if cmd := t.verify[task]; cmd != "" {
		what = "Verify with " + cmd
	}
	return []sdk.SessionUpdate{sdk.UpdatePlan(
		sdk.PlanEntry{Content: "Make the change the request asks for", Priority: sdk.PlanEntryPriorityHigh, Status: work},
		sdk.PlanEntry{Content: what, Priority: sdk.PlanEntryPriorityHigh, Status: check},
	)}
}

func (t *translator) message(ev *port.Event) []sdk.SessionUpdate {
	var d struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	json.Unmarshal(ev.Data, &d)
	streamed := t.streamed
	t.streamed = false
	switch {
	case d.Content == "":
		return nil
	case d.Role == "assistant" && !(t.live && streamed):
		return []sdk.SessionUpdate{sdk.UpdateAgentMessageText(d.Content)}
	case d.Role == "user" && !t.live:
		return []sdk.SessionUpdate{sdk.UpdateUserMessageText(d.Content)}
	}
	return nil
}

func (t *translator) opRequested(ev *port.Event) []sdk.SessionUpdate {
	var d struct {
		Tool   string `json:"tool"`
		CallID string `json:"call_id"`
	}
	json.Unmarshal(ev.Data, &d)
	// Live, the new operation is not in any earlier answer; a replay's
	// first answer already holds every operation of the task.
	op := t.ops(ev.Task, t.live)[ev.Operation]
	opts := []sdk.ToolCallStartOpt{sdk.WithStartKind(kindOf(d.Tool)), sdk.WithStartStatus(sdk.ToolCallStatusPending)}
	if len(op.Args) > 0 {
		opts = append(opts, sdk.WithStartRawInput(json.RawMessage(op.Args)))
	}
	if l := locationsOf(t.root, op.Args); l != nil {
		opts = append(opts, sdk.WithStartLocations(l))
	}
	if c := diffOf(t.root, d.Tool, op.Args); c != nil {
		opts = append(opts, sdk.WithStartContent(c))
	}
	return []sdk.SessionUpdate{sdk.StartToolCall(sdk.ToolCallId(ev.Operation), titleOf(d.Tool, d.CallID, op.Args), opts...)}
}

func (t *translator) opDecision(ev *port.Event) []sdk.SessionUpdate {
	var d struct {
		To   string `json:"to"`
		Rule string `json:"rule"`
	}
	json.Unmarshal(ev.Data, &d)
	if d.To != "denied" {
		return nil
	}
	text := "Denied"
	if d.Rule != "" {
		text += " (rule " + d.Rule + ")"
	}
	return []sdk.SessionUpdate{sdk.UpdateToolCall(sdk.ToolCallId(ev.Operation), sdk.WithUpdateStatus(sdk.ToolCallStatusFailed),
		sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(text + "; it was not run."))}))}
}

func (t *translator) opResult(ev *port.Event) []sdk.SessionUpdate {
	var d struct {
		To   string `json:"to"`
		Tool string `json:"tool"`
	}
	json.Unmarshal(ev.Data, &d)
	status := sdk.ToolCallStatusCompleted
	if d.To != "succeeded" {
		status = sdk.ToolCallStatusFailed
	}
	op := t.ops(ev.Task, t.live)[ev.Operation]
	content := diffOf(t.root, d.Tool, op.Args)
	if text := resultText(op.Result); text != "" {
		content = append(content, sdk.ToolContent(sdk.TextBlock(text)))
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status)}
	if len(content) > 0 {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	if len(op.Result) > 0 && json.Valid(op.Result) {
		opts = append(opts, sdk.WithUpdateRawOutput(json.RawMessage(op.Result)))
	}
	return []sdk.SessionUpdate{sdk.UpdateToolCall(sdk.ToolCallId(ev.Operation), opts...)}
}

// taskEnded closes a replayed task with the message a live prompt ends
// with; live, that message comes from the result record.
func (t *translator) taskEnded(ev *port.Event) []sdk.SessionUpdate {
	var d struct {
		To     string `json:"to"`
		Reason string `json:"reason"`
	}
	json.Unmarshal(ev.Data, &d)
	if t.live || !terminal[d.To] {
		return nil
	}
	v := t.verdict[ev.Task]
	return []sdk.SessionUpdate{sdk.UpdateAgentMessageText(finalText(ev.Task, d.To, d.Reason, v, t.changed[ev.Task]))}
}

var terminal = map[string]bool{"completed": true, "failed": true, "cancelled": true, "blocked": true}

// resultUpdate is the final message of a live prompt.
func (t *translator) result(r *port.Result) sdk.SessionUpdate {
	var v verdict
	if r.Verification != nil {
		v.Completed, v.Verification = r.Verification.Completed, r.Verification.Verification
		json.Unmarshal(r.Verification.Evidence, &v.Evidence)
	}
	var changed []string
	if r.Diff != nil {
		for _, c := range r.Diff.Changed {
			changed = append(changed, c.Path)
		}
	}
	text := finalText(r.Task, r.Status, r.Reason, v, changed)
	if r.Error != nil && r.Error.Message != "" {
		text += " Why: " + r.Error.Message + "."
	}
	return sdk.UpdateAgentMessageText(text)
}

// finalText states how the task ended and what verification said.
func finalText(task, status, reason string, v verdict, changed []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n\nFluzo: task %s ended %s", orUnknown(task), status)
	if reason != "" && reason != status {
		fmt.Fprintf(&b, " (%s)", reason)
	}
	switch v.Verification {
	case "":
		b.WriteString("; verification not run")
	default:
		fmt.Fprintf(&b, "; verification %s", v.Verification)
	}
	if v.Evidence.Command != "" {
		fmt.Fprintf(&b, " (`%s`)", v.Evidence.Command)
	}
	if len(changed) > 0 {
		fmt.Fprintf(&b, ". Changed: %s", strings.Join(changed, ", "))
	} else {
		b.WriteString(". No file changed")
	}
	b.WriteString(".")
	return b.String()
}

func changedPaths(data json.RawMessage) []string {
	var d port.Diff
	json.Unmarshal(data, &d)
	var out []string
	for _, c := range d.Changed {
		out = append(out, c.Path)
	}
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
