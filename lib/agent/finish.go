package agent

import (
	"context"
	"errors"
	"fmt"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// maxEvidenceBytes bounds the verification output kept as evidence.
const maxEvidenceBytes = 4 << 10

// finish applies the verification contract when the loop ended normally,
// records the outcome and builds the result.
func (a *run) finish(ctx context.Context, err error) Result {
	res := Result{V: core.WireVersion, Type: "result", Session: a.refs.Session, Task: a.refs.Task, Attempt: a.refs.Attempt, Trace: a.refs.Trace}
	status, reason := core.Code("completed"), ""
	var s *stop
	switch {
	case errors.As(err, &s):
		status, reason = s.status, s.reason
		if s.err != nil {
			res.Error = core.AsError(s.err)
		}
	case err != nil:
		status, reason, res.Error = core.CodeOf(err), "error", core.AsError(err)
	}
	if causedByCancel(ctx, err, status, reason) {
		// A failure the cancellation itself caused (git inspection, a
		// call or a journal write cut short) is the cancellation: the
		// user asked to stop, and "failed" or storage_error would blame
		// the workspace or the store.
		status, reason, res.Error = core.CodeCancelled, "cancelled", cancelledError(res.Error)
	}
	// Finishing work (verification, diff, records) must happen even when
	// the run was cancelled.
	fctx := context.WithoutCancel(ctx)
	// A request reserved with the last outcome and never sent is settled
	// before the outcome of the attempt.
	a.releaseReserved(fctx, core.Errorf(core.CodeCancelled, "the task stopped first (%s)", strings.TrimSpace(string(status)+" "+reason)))
	if err == nil {
		if a.verdict == nil {
			v := a.tracedVerify(fctx)
			a.verdict = &v
		}
		res.Verification = *a.verdict
		if !res.Verification.Completed {
			status, reason = core.CodeFailed, res.Verification.Reason
			if a.denied {
				status, reason = core.CodePermissionDenied, "denied_required_work"
			}
		} else if lostErr := a.lostBackendBlocksCompletion(); lostErr != nil {
			status, reason, res.Error = core.CodeFailed, ReasonToolBackendLost, core.AsError(lostErr)
		}
	} else if reason == ReasonVerificationNotConfigured {
		res.Verification = DecideVerification("", false, nil, a.editSeq, "")
	} else if a.verdict != nil {
		// Stopped after a failed verification (a budget ran out while the
		// model worked on the feedback): the last run is the evidence.
		res.Verification = *a.verdict
	} else {
		res.Verification = Verdict{Verification: VerifyNotRun, Reason: "task_stopped"}
	}
	if a.Diff != nil {
		if d, derr := a.Diff(fctx, a.touched); derr == nil {
			res.Diff = d
			a.record(fctx, core.EvDiffSummary, d)
		}
	}
	res.Status, res.Reason = string(status), reason
	res.Turns, res.ToolCalls, res.Summary, res.Loops, res.Usage, res.Pending = a.steps.Turns(), a.toolCalls, a.summary, a.found, a.tokens, a.pending
	res.Summary = honestSummary(res.Summary, res.Verification, a.verifyRuns)
	if reason == ReasonToolBackendLost && res.Summary != "" {
		res.Summary = "Not completed: the tool backend was lost during this attempt, so a call's effect is unknown. The model's last message: " + res.Summary
	}
	task, attempt := outcomeStates(status)
	if jerr := a.Journal.Finish(fctx, a.refs, task, attempt, reason); jerr != nil && res.Error == nil {
		res.Status, res.Error = string(core.CodeStorageError), core.AsError(jerr)
	}
	settleError(&res)
	return res
}

func outcomeStates(status core.Code) (core.TaskState, core.AttemptState) {
	switch status {
	case "completed":
		return core.TaskCompleted, core.AttemptCompleted
	case core.CodeCancelled:
		return core.TaskCancelled, core.AttemptCancelled
	case core.CodePermissionRequired, "blocked":
		return core.TaskBlocked, core.AttemptFailed
	}
	return core.TaskFailed, core.AttemptFailed
}

// declareContract checks, before any model request, that the task can
// ever complete: it needs a verification command or the user's explicit
// waiver, which is recorded durably. Without either the task fails at once
// instead of spending a budget on work nothing could accept.
func (a *run) declareContract(ctx context.Context) error {
	switch {
	case a.verify != "":
		return nil
	case a.waived && a.waiverRecorded:
		return nil
	case a.waived:
		_, err := a.Journal.Record(ctx, a.refs, core.EvVerificationWaived, waiverBody)
		if err != nil {
			return stopWith(core.CodeStorageError, "journal_unavailable", err)
		}
		return nil
	}
	err := core.Errorf(core.CodeFailed, "the task has no verification command, so it could never be completed").
		WithHint("pass --verify \"COMMAND\", set harness.verify_command in .fluzo, or pass --no-verify to waive verification explicitly")
	return stopWith(core.CodeFailed, ReasonVerificationNotConfigured, err)
}

// verifyNow reruns the verification command itself, at the current
// workspace state, and decides the contract. It is recorded as an
// operation like any other command.
func (a *run) verifyNow(ctx context.Context) Verdict {
	if a.verify == "" {
		v := DecideVerification("", a.waived, nil, a.editSeq, "")
		a.record(ctx, core.EvVerification, v)
		return v
	}
	name, args := verificationCall(a.verify)
	call := toolCall{ID: "verify_" + a.refs.Attempt, Name: name, Args: args}
	d := Decision{Verdict: verdictAllow, Rule: "verification_contract", Reason: "the task's verification command"}
	op, err := a.Journal.OpAuthorize(ctx, a.refs, call, "", d)
	if err != nil && ctx.Err() != nil {
		// The cancellation came first: nothing ran, and the store is not
		// to blame (journal_unavailable made the run end failed).
		v := Verdict{Verification: VerifyNotRun, Reason: ReasonVerificationCancelled}
		a.record(context.WithoutCancel(ctx), core.EvVerification, v)
		return v
	}
	if err != nil {
		return Verdict{Verification: VerifyNotRun, Reason: "journal_unavailable"}
	}
	// The intent is durable now, so its outcome must be too, even when
	// the task is cancelled meanwhile (as a tool call's is): written with
	// the cancelled context it failed, and the operation stayed
	// unresolved although this owner was alive to settle it.
	wctx := context.WithoutCancel(ctx)
	a.dispatching(op, call)
	out, err := a.Tools.Call(ctx, call.Name, call.Args)
	var lost *errBackendLost
	if errors.As(err, &lost) {
		// Not a verdict on the work: the check itself did not finish.
		a.Journal.OpResult(wctx, a.refs, op, toolResult{Out: lostOutcome(lost)})
		a.record(wctx, core.EvToolBackendLost, map[string]any{"operation": op, "unknown": lost.sent, "restarts": a.backendRestarts})
		return Verdict{Verification: VerifyNotRun, Reason: ReasonToolBackendLost}
	}
	if err != nil {
		out = toolOutcome{OK: false, Error: core.AsError(err)}
	}
	if _, err := a.Journal.OpResult(wctx, a.refs, op, toolResult{Out: out}); err != nil {
		return Verdict{Verification: VerifyNotRun, Reason: "journal_unavailable"}
	}
	if sandboxUnavailable(out) {
		// Not a verdict on the work: the command was refused unrun.
		v := Verdict{Verification: VerifyNotRun, Reason: string(sandbox.CodeUnavailable)}
		a.record(wctx, core.EvVerification, v)
		return v
	}
	if stoppedByCancel(out).Cancelled {
		// The cancellation ended the command before it could decide
		// anything: no verdict on the work ("failed, exit -1" would be a
		// guess recorded as a fact).
		v := Verdict{Verification: VerifyNotRun, Reason: ReasonVerificationCancelled}
		a.record(wctx, core.EvVerification, v)
		return v
	}
	exit, output := execResult(out)
	// The command ran to its end: the state it ran against is read and
	// its verdict recorded even when the task was cancelled meanwhile (a
	// cancelled read made the state "unknown", which matched itself).
	state, serr := WorkspaceFingerprint(wctx, a.Tools)
	if serr != nil {
		state = workspaceStateUnknown
	}
	a.verifyOutput = output
	runRec := &VerificationRun{Command: a.verify, ExitCode: exit, State: state, EditSeq: a.editSeq, Output: tail(output, maxEvidenceBytes)}
	v := DecideVerification(a.verify, false, runRec, a.editSeq, state)
	a.record(wctx, core.EvVerification, v)
	return v
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[len(s)-n:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i < 200 {
		cut = cut[i+1:]
	}
	return "[…]\n" + cut
}

// honestSummary keeps the model's last words from reading as success
// when the contract did not hold: a failed or stale verification is said
// first.
func honestSummary(summary string, v Verdict, failedRuns int) string {
	if summary == "" || (v.Verification != VerifyFailed && v.Verification != VerifyStale) || v.Evidence == nil {
		return summary
	}
	what := fmt.Sprintf("Verification failed: `%s` exited with code %d", v.Evidence.Command, v.Evidence.ExitCode)
	switch {
	case v.Reason == core.UnknownStateReason:
		what = fmt.Sprintf("Verification proves nothing: the workspace state `%s` ran against could not be read", v.Evidence.Command)
	case v.Verification == VerifyStale:
		what = fmt.Sprintf("Verification is stale: the workspace changed after `%s` ran", v.Evidence.Command)
	}
	if failedRuns > 1 {
		what += fmt.Sprintf(" (%d failed runs)", failedRuns)
	}
	return what + ". The model's last message: " + summary
}

// cancelledError keeps what the cancellation interrupted as the detail.
func cancelledError(cut *core.Error) *core.Error {
	if cut == nil {
		return core.Errorf(core.CodeCancelled, "the task was cancelled")
	}
	return core.Errorf(core.CodeCancelled, "the task was cancelled while it ran (%s)", cut.Message)
}

// causedByCancel reports whether a stop happened because the attempt's
// context was cancelled: a generic failure once it is, or any error that
// wraps context.Canceled.
func causedByCancel(ctx context.Context, err error, status core.Code, reason string) bool {
	if ctx.Err() == nil || err == nil || status == core.CodeCancelled || reason == ReasonToolBackendLost {
		return false
	}
	var s *stop
	if errors.As(err, &s) {
		err = s.err
	}
	return status == core.CodeFailed || errors.Is(err, context.Canceled)
}
