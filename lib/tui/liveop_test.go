package tui

import (
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// A long command shows as dispatched while it runs: its durable
// operation.dispatched event is committed only with the outcome, so the
// live.operation record is what moves the card; a late live record never
// takes back an outcome already shown.
func TestLiveOperationShowsACallAsDispatched(t *testing.T) {
	h := newHarness(t, 120, 40, Options{Caps: theme.Caps{Depth: theme.TrueColor}})
	running(h)
	h.records(ev(4, "operation.requested", "op_1", `{"tool":"exec"}`),
		ev(5, "operation.decision", "op_1", `{"to":"authorized"}`),
		ev(6, "operation.intent", "op_1", `{"to":"intent_committed"}`))
	it := h.app.toolItem("op_1")
	if it == nil || it.tool.op.State != "intent_committed" {
		t.Fatalf("before dispatch: %+v", it)
	}
	h.records(`{"v":1,"type":"live.operation","task":"tsk_1","attempt":"att_1","operation":"op_1","tool":"exec","state":"dispatched"}`)
	if got := it.tool.op.State; got != "dispatched" {
		t.Fatalf("after live.operation the card is %q, want dispatched", got)
	}
	h.records(ev(7, "operation.dispatched", "op_1", `{"to":"dispatched"}`),
		ev(8, "operation.result", "op_1", `{"to":"succeeded"}`),
		`{"v":1,"type":"live.operation","task":"tsk_1","attempt":"att_1","operation":"op_1","tool":"exec","state":"dispatched"}`)
	if got := it.tool.op.State; got != "succeeded" {
		t.Fatalf("a late live.operation moved a finished card to %q", got)
	}
}
