package agent

import (
	"context"
	"errors"
	"fmt"
	"github.com/josecorral/fluzo/lib/tools/sandbox"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/mcp"
)

// call runs one complete tool call through the operation lifecycle:
// requested → policy → (approval) → durable intent → dispatch → outcome.
// The last call of a turn, unless cancelled, reserves the next request
// with its outcome.
func (a *run) call(ctx context.Context, call toolCall, last bool) error {
	if err := a.budget.BeginToolCall(); err != nil {
		a.answerSkipped([]toolCall{call})
		return a.exhausted(ctx, err)
	}
	a.toolCalls++
	d, err := a.tracedEvaluate(ctx, call.Name, call.Args)
	if err != nil {
		d = Decision{Verdict: verdictDeny, Rule: "policy_error", Reason: core.AsError(err).Message}
	}
	op := ""
	if d.Verdict == verdictAsk {
		if op, err = a.Journal.OpRequested(ctx, a.refs, call); err != nil {
			return stopWith(core.CodeStorageError, "journal_unavailable", err)
		}
		if d, err = a.ask(ctx, op, call, d); err != nil {
			return err
		}
	}
	if d.Verdict == verdictAllow && ctx.Err() != nil {
		// Cancellation stops new work: nothing is dispatched after it.
		a.Journal.OpAuthorize(context.WithoutCancel(ctx), a.refs, call, op, Decision{Verdict: verdictDeny, Rule: "cancelled", Reason: "the task was cancelled"})
		a.answerSkipped([]toolCall{call})
		return stopped(ctx, ctx.Err())
	}
	// Decision and intent commit together, before dispatch.
	if op, err = a.Journal.OpAuthorize(ctx, a.refs, call, op, d); err != nil {
		return stopWith(core.CodeStorageError, "journal_unavailable", err)
	}
	if d.Verdict != verdictAllow {
		a.denied = true
		a.toolMessage(call, fmt.Sprintf("denied by policy (rule %s): %s. Do not retry this operation; choose another approach or finish.", d.Rule, d.Reason))
		return nil
	}
	faultPoint("after_intent_commit")
	a.dispatching(op, call)
	out, stop := a.tracedDispatch(ctx, call, op)
	faultPoint("after_dispatch")
	// The honest outcome is committed even when the task was cancelled
	// meanwhile (the command's partial output and how it ended).
	if err := a.outcome(context.WithoutCancel(ctx), op, call, out, last && ctx.Err() == nil, stop); err != nil {
		return err
	}
	if sandboxUnavailable(out) {
		// Fail closed: no command can run unconfined, so the task stops
		// here rather than letting the model try other commands.
		return stopWith(core.CodeFailed, string(sandbox.CodeUnavailable), out.Error)
	}
	var lost *errBackendLost
	if errors.As(stop, &lost) {
		return a.backendLost(context.WithoutCancel(ctx), op, lost)
	}
	if stop != nil {
		return stop
	}
	return nil
}

// approvalExpecter is an Approver that must know an operation is waiting
// before its permission.requested event is visible, so that an answer
// sent as soon as the event is seen is not taken for a stale one.
type approvalExpecter interface{ expect(PendingApproval) }

// The port answers approvals asynchronously; a silent mismatch here would
// turn every quick answer into "stale approval".
var _ approvalExpecter = (*Port)(nil)

// ask turns an AskUser decision into an approval round trip, or into
// permission_required when nobody can answer (headless).
func (a *run) ask(ctx context.Context, op string, call toolCall, d Decision) (Decision, error) {
	p := PendingApproval{Operation: op, Tool: call.Name, Args: call.Args, Rule: d.Rule, ServerHints: a.mcpHints(call.Name)}
	if e, ok := a.Approver.(approvalExpecter); ok {
		// Ready for the answer before anyone can see the request.
		e.expect(p)
	}
	a.record(ctx, core.EvPermissionRequested, p)
	if a.Approver == nil {
		a.pending = &p
		a.Journal.OpAuthorize(ctx, a.refs, call, op, d)
		a.answerSkipped([]toolCall{call})
		return d, stopWith(core.CodePermissionRequired, "permission_required", nil)
	}
	// Waiting for the user does not consume active time.
	a.budget.Pause()
	got, err := a.tracedApprove(ctx, p)
	a.budget.Run()
	if err != nil {
		a.answerSkipped([]toolCall{call})
		if ctx.Err() != nil {
			return d, stopped(ctx, err)
		}
		return d, stopWith(core.CodeOf(err), "approval_failed", err)
	}
	a.record(ctx, core.EvPermissionResolved, map[string]any{"operation": op, "verdict": got.Verdict, "grant": got.GrantID})
	return got, nil
}

// dispatch sends the call to the execution backend. Cancellation asks the
// backend to end owned processes gracefully; partial edits stay.
func (a *run) dispatch(ctx context.Context, call toolCall) (toolOutcome, error) {
	if mcp.IsModelName(call.Name) {
		return a.dispatchMCP(ctx, call)
	}
	out, err := a.Tools.Call(ctx, call.Name, capTimeout(call, a.ShellTimeout))
	var lost *errBackendLost
	if errors.As(err, &lost) {
		return lostOutcome(lost), lost
	}
	if err != nil {
		out = toolOutcome{OK: false, Error: core.AsError(err)}
	}
	if ctx.Err() != nil {
		return out, stopped(ctx, ctx.Err())
	}
	return out, nil
}

// outcome commits the result, bounds what enters the context, and feeds
// loop detection; the outcome, its artifact reference and the events
// derived from it are one commit.
func (a *run) outcome(ctx context.Context, op string, call toolCall, out toolOutcome, last bool, stop error) error {
	body, _ := core.MarshalVerbatim(out)
	limit := orDefault(a.ToolContextMaxBytes, defaultToolContextMaxBytes)
	r := toolResult{Out: out}
	if len(body) > limit {
		r.Full = body
	}
	var loop *Loop
	r.Events, loop = a.watch(call, out)
	if last {
		r.Reserve = a.reserveAhead(out, stop, min(len(body), limit+128))
	}
	art, err := a.Journal.OpResult(ctx, a.refs, op, r)
	if err != nil {
		return stopWith(core.CodeStorageError, "journal_unavailable", err)
	}
	if r.Reserve != nil && r.Reserve.ID != "" {
		a.reserved = r.Reserve
	}
	a.toolMessage(call, boundText(string(body), limit, art))
	if loop != nil {
		a.found = append(a.found, *loop)
		a.observe("loop_detected", loop)
	}
	return nil
}

// liveOperation is the live record of a dispatch: the durable
// operation.dispatched event commits with the outcome, so a view showing
// a running call learns of it here.
type liveOperation struct {
	V         int    `json:"v"`
	Type      string `json:"type"`
	Task      string `json:"task"`
	Attempt   string `json:"attempt"`
	Operation string `json:"operation"`
	Tool      string `json:"tool"`
	State     string `json:"state"`
}

// dispatching tells live views a call is being sent to the backend.
func (a *run) dispatching(op string, call toolCall) {
	a.emit(liveOperation{V: 1, Type: "live.operation", Task: a.refs.Task, Attempt: a.refs.Attempt, Operation: op, Tool: call.Name, State: string(core.OpDispatched)})
}

// boundText keeps at most limit bytes with an explicit marker naming the
// artifact holding the full text.
func boundText(s string, limit int, artifact string) string {
	if len(s) <= limit {
		return s
	}
	head := s[:limit]
	return fmt.Sprintf("%s\n[truncated: %d of %d bytes shown; full output in artifact %s]", head, limit, len(s), artifact)
}

func (a *run) toolMessage(call toolCall, content string) {
	a.msgs = append(a.msgs, message{Role: roleTool, ToolCallID: call.ID, Content: content})
}

// watch feeds edits and test runs to the loop detector. It returns the
// events to record with the outcome (a command's result, a detected
// loop) and the loop, which is offered to the observer once recorded.
func (a *run) watch(call toolCall, out toolOutcome) ([]derivedEvent, *Loop) {
	switch toolKind(call.Name) {
	case kindEdit:
		if out.OK {
			a.editSeq++
			a.loops.observeEdit()
			a.touched = append(a.touched, editPath(call.Args))
		}
	case kindExec:
		cmd := execCommand(call.Args)
		exit, output := execResult(out)
		if stop := stoppedByCancel(out); stop.Cancelled {
			// A cancelled command has no exit code and is no test failure.
			return []derivedEvent{{core.EvCommandResult, withConfinement(withEnded(map[string]any{"command": cmd, "exit_code": nil, "cancelled": true, "signal": stop.Signal, "edit_seq": a.editSeq, "output_tail": tail(output, maxEvidenceBytes)}, out), out)}}, nil
		}
		failure := ""
		if exit != 0 {
			failure = failureFingerprint(cmd, output)
		}
		evs := []derivedEvent{{core.EvCommandResult, withConfinement(withEnded(map[string]any{"command": cmd, "exit_code": exit, "failure": failure, "edit_seq": a.editSeq, "output_tail": tail(output, maxEvidenceBytes)}, out), out)}}
		if l := a.loops.observeTest(failure); l != nil {
			return append(evs, derivedEvent{core.EvLoopDetected, l}), l
		}
		return evs, nil
	}
	return nil, nil
}
