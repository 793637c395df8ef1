package agent

import (
	"github.com/josecorral/fluzo/lib/core"
)

// The result record's one rule for "error": it is present exactly when
// the status is not "completed", and it is a typed error whose code is the
// status. Every path that ends a task without completing it says why in
// the same field, so a consumer never has to guess from which fields
// happen to be there; a completed result never carries one.

// settleError applies that rule to a finished result. An error already
// set by the path that stopped the task is kept: it says more.
func settleError(r *Result) {
	if r.Status == "completed" {
		r.Error = nil
		return
	}
	if r.Error != nil {
		return
	}
	r.Error = stopError(r)
}

// stopError describes a stop that carried no error of its own.
func stopError(r *Result) *core.Error {
	code := core.Code(r.Status)
	switch {
	case code == core.CodeFailed && r.Verification.Verification != "" && !r.Verification.Completed && r.Reason != "":
		return core.Errorf(code, "the task's verification did not pass (%s)", r.Reason).
			WithHint("the result's verification field holds the evidence; fix and run 'fluzo-agent resume %s'", r.Task)
	case code == core.CodeBudgetExhausted:
		return core.Errorf(code, "the task used its budget (%s)", r.Reason).
			WithHint("raise the budget in .fluzo or with --set, then run 'fluzo-agent resume %s'", r.Task)
	case code == core.CodePermissionRequired:
		e := core.Errorf(code, "the task stopped at an operation that needs approval")
		if r.Pending != nil {
			e = core.Errorf(code, "the task stopped at %s, which needs approval (%s)", r.Pending.Tool, r.Pending.Rule)
		}
		return e.WithHint("grant it with --allow and run 'fluzo-agent resume %s', or approve it interactively", r.Task)
	case code == core.CodeCancelled:
		return core.Errorf(code, "the task was cancelled")
	}
	reason := r.Reason
	if reason == "" {
		reason = "no reason recorded"
	}
	return core.Errorf(code, "the task ended %s (%s)", r.Status, reason)
}
