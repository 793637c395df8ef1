package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/core"
)

// answeringJournal answers the port's approval the moment the
// permission.requested event is recorded, as a quick client would on
// seeing it; other journal methods are not used by ask.
type answeringJournal struct {
	journal
	port   *Port
	answer error
}

func (j *answeringJournal) Record(ctx context.Context, refs Refs, typ string, data any) (core.Event, error) {
	if typ == core.EvPermissionRequested {
		raw, _ := json.Marshal(map[string]any{"v": 1, "id": "a1", "cmd": "approve", "operation": data.(PendingApproval).Operation})
		_, j.answer = j.port.approve(ctx, raw)
	}
	return core.Event{Type: typ}, nil
}

// An answer sent as soon as permission.requested is visible is taken: the
// port knows the operation is waiting before the event is recorded, so a
// fast client is never told its approval is stale.
func TestAnApprovalSentOnThePermissionEventIsNeverStale(t *testing.T) {
	port := NewPort(nil)
	j := &answeringJournal{port: port}
	a := &run{Runner: &Runner{Approver: port, Journal: j}, refs: Refs{Task: "tsk_x"},
		budget: admit.NewBudget(admit.Limits{}, admit.Usage{}, nil)}
	// Without the answer, ask would wait for one until the deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d, err := a.ask(ctx, "op_x", toolCall{Name: "exec", Args: json.RawMessage(`{}`)}, Decision{Verdict: verdictAsk, Rule: "policy.shell=ask"})
	if j.answer != nil {
		t.Fatalf("the answer was refused: %v", j.answer)
	}
	if err != nil || d.Verdict != verdictAllow {
		t.Fatalf("ask: %+v %v", d, err)
	}
}
