package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
)

// ReasonToolBackendLost ends a task whose tool backend vanished and could
// not be restarted (or vanished again after its one restart).
const ReasonToolBackendLost = "tool_backend_lost"

// maxBackendRestarts bounds the restarts of a lost tool backend per
// attempt: a backend that keeps dying must stop the task, not loop.
const maxBackendRestarts = 1

// backendRestarter is a Tools backend that can replace a lost child.
type backendRestarter interface {
	Restart(ctx context.Context) error
}

// lostOutcome is the outcome of a call whose backend vanished. A call that
// may have reached the backend is unknown: recording it failed would
// invite the model to run again a command that may have completed.
func lostOutcome(lost *errBackendLost) toolOutcome {
	if !lost.sent {
		return toolOutcome{OK: false, Error: core.Errorf(core.CodeFailed, "not run: %s", lost.Error()).
			With("reason", ReasonToolBackendLost)}
	}
	return toolOutcome{OK: false, Unknown: true, Error: core.Errorf(core.CodeFailed,
		"outcome unknown: %s while this call ran; it may have taken effect, so check the workspace before repeating it", lost.Error()).
		With("reason", ReasonToolBackendLost)}
}

// backendLost records the loss and restarts the backend once per attempt;
// otherwise the task stops failed with reason tool_backend_lost, so a run
// without a working backend is never completed, waiver or not.
func (a *run) backendLost(ctx context.Context, op string, lost *errBackendLost) error {
	a.record(ctx, core.EvToolBackendLost, map[string]any{"operation": op, "unknown": lost.sent, "restarts": a.backendRestarts})
	r, ok := a.Tools.(backendRestarter)
	if !ok || a.backendRestarts >= maxBackendRestarts {
		return stopWith(core.CodeFailed, ReasonToolBackendLost, core.Errorf(core.CodeFailed, "%s", lost.Error()).
			WithHint("the tool backend was lost more often than the one restart an attempt allows; check fluzo-tool, then resume the task"))
	}
	a.backendRestarts++
	if err := r.Restart(ctx); err != nil {
		return stopWith(core.CodeFailed, ReasonToolBackendLost, err)
	}
	restarted := map[string]any{"after_operation": op, "restarts": a.backendRestarts}
	if tc, ok := a.Tools.(*toolClient); ok {
		// The new backend's own hello: same host and root (Restart
		// checked), but its HEAD, branch and sandbox are what it reports
		// now, and resume reads the identity from these records.
		restarted["backend"] = backendIdentity(tc)
	}
	a.record(ctx, core.EvToolBackendRestarted, restarted)
	return nil
}

// lostBackendBlocksCompletion keeps an attempt whose tool backend was lost
// (and restarted) from ending completed, waiver or not (issue 12): a call
// that ran when the backend vanished has an unknown effect, and a
// verification pass at the end proves the final state, not what that call
// did, so "completed" would record a guess as a fact. The verdict stays in
// the result as evidence; resuming runs a fresh attempt that can complete.
func (a *run) lostBackendBlocksCompletion() error {
	if a.backendRestarts == 0 {
		return nil
	}
	return core.Errorf(core.CodeFailed, "the tool backend was lost during this attempt and restarted; a call it was running may or may not have taken effect").
		With("restarts", a.backendRestarts).
		WithHint("check the workspace (fluzo-store show TASK lists the unknown operation), then resume the task to finish it with a fresh attempt")
}
