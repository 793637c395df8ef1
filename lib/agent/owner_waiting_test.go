package agent

import (
	"context"
	"encoding/json"
	"testing"
)

// blockingApprover holds its answer until release is closed, and tells
// asked when the wait began.
type blockingApprover struct {
	asked, release chan struct{}
	expected       string
}

func (b *blockingApprover) expect(p PendingApproval) { b.expected = p.Operation }

func (b *blockingApprover) Approve(ctx context.Context, _ Refs, p PendingApproval) (Decision, error) {
	close(b.asked)
	<-b.release
	return Decision{Verdict: "allow"}, nil
}

func ownerState(t *testing.T, w *Owner) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"v": 1, "id": "c1", "cmd": "status"})
	out, err := w.ctlStatus(context.Background(), raw)
	if err != nil {
		t.Fatal(err)
	}
	return out.(map[string]any)
}

// While an approval is open the owner says the task waits for it (reason
// permission, the operation); once answered it runs again.
func TestOwnerStatusWaitsOnAnOpenApproval(t *testing.T) {
	w := &Owner{Root: "/ws"}
	w.active.set(Refs{Task: "tsk_1"}, func() {}, nil, nil)
	inner := &blockingApprover{asked: make(chan struct{}), release: make(chan struct{})}
	a := w.waitingFor(inner)
	a.(approvalExpecter).expect(PendingApproval{Operation: "op_1"})
	if inner.expected != "op_1" {
		t.Fatalf("expect was not forwarded: %q", inner.expected)
	}
	done := make(chan struct{})
	go func() {
		a.Approve(context.Background(), Refs{}, PendingApproval{Operation: "op_1"})
		close(done)
	}()
	<-inner.asked
	st := ownerState(t, w)
	waiting, _ := st["waiting"].(map[string]string)
	if st["state"] != "waiting" || waiting["reason"] != "permission" || waiting["operation"] != "op_1" {
		t.Fatalf("status while the ask is open = %v", st)
	}
	close(inner.release)
	<-done
	st = ownerState(t, w)
	if _, ok := st["waiting"]; st["state"] != "running" || ok {
		t.Fatalf("status after the answer = %v", st)
	}
}

// A cancel during the wait leaves the task stopping, not running.
func TestOwnerStatusStoppingWinsOverWaiting(t *testing.T) {
	w := &Owner{Root: "/ws"}
	w.active.set(Refs{Task: "tsk_1"}, func() {}, nil, nil)
	w.active.waitOn("op_1")
	w.active.mu.Lock()
	w.active.state = "stopping"
	w.active.mu.Unlock()
	w.active.resume()
	if st := ownerState(t, w); st["state"] != "stopping" {
		t.Fatalf("status = %v", st)
	}
}

// Headless has no approver: it must stay nil so asks become
// permission_required.
func TestWaitingForKeepsHeadlessNil(t *testing.T) {
	if a := (&Owner{}).waitingFor(nil); a != nil {
		t.Fatalf("waitingFor(nil) = %#v", a)
	}
}
