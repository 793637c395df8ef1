package agent

import "context"

// waitingApprover marks the owner's active task waiting (reason
// permission) while an approval is open, so that status shows who the
// task waits for instead of "running": an ask nobody answers keeps the
// task waiting, and the control socket must say so (§16: waiting states
// carry a machine-readable reason).
type waitingApprover struct {
	inner Approver
	task  *activeTask
}

// waitingFor wraps a; a nil Approver (headless) stays nil, since the run
// turns a nil Approver into permission_required.
func (w *Owner) waitingFor(a Approver) Approver {
	if a == nil {
		return nil
	}
	return &waitingApprover{inner: a, task: &w.active}
}

func (a *waitingApprover) Approve(ctx context.Context, refs Refs, p PendingApproval) (Decision, error) {
	a.task.waitOn(p.Operation)
	defer a.task.resume()
	return a.inner.Approve(ctx, refs, p)
}

// expect forwards to an approver that must see the operation first.
func (a *waitingApprover) expect(p PendingApproval) {
	if e, ok := a.inner.(approvalExpecter); ok {
		e.expect(p)
	}
}

var _ approvalExpecter = (*waitingApprover)(nil)

// waitOn records that the task waits for the user's answer on op; a task
// already stopping stays stopping.
func (t *activeTask) waitOn(op string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == "running" {
		t.state, t.waitingOn = "waiting", op
	}
}

// resume ends the wait: the task runs again (unless it is stopping).
func (t *activeTask) resume() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == "waiting" {
		t.state = "running"
	}
	t.waitingOn = ""
}
