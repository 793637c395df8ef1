package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// dyingTools stands in for a fluzo-tool child that vanishes during its
// first `lose` exec calls; Restart brings it back.
type dyingTools struct {
	Tools
	lose     int
	restarts int
}

func (d *dyingTools) Call(ctx context.Context, tool string, args json.RawMessage) (toolOutcome, error) {
	if tool == "exec" && d.lose > 0 {
		d.lose--
		return toolOutcome{}, &errBackendLost{sent: true, cause: core.Errorf(core.CodeFailed, "the fluzo-tool server closed its output")}
	}
	return d.Tools.Call(ctx, tool, args)
}

func (d *dyingTools) Restart(context.Context) error { d.restarts++; return nil }

const twoExecs = `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"x1","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"exec","arguments":{"argv":["true"]}}]}},
 {"id":"x2","match":{"tool_result":{"tool":"exec"}},"respond":{"tool_calls":[{"id":"c2","name":"exec","arguments":{"argv":["true"]}}]}},
 {"id":"done","match":{"tool_result":{"tool":"exec"}},"respond":{"text":"done"}}]}`

// One loss, one restart: the model carries on (the second exec runs on
// the new backend), but the attempt never ends completed, waiver or not.
func TestLostBackendOperationIsUnknownAndRestartedOnce(t *testing.T) {
	h := newHarness(t, nil, twoExecs, "exec:true")
	dt := &dyingTools{Tools: h.runner.Tools, lose: 1}
	h.runner.Tools = dt
	res := h.runner.Run(context.Background(), taskStart{Request: "run", NoVerify: true})
	if res.Status != string(core.CodeFailed) || res.Reason != ReasonToolBackendLost || res.ExitCode() != 1 || dt.restarts != 1 {
		t.Fatalf("one loss, one restart, not completed: %+v (restarts %d)", res, dt.restarts)
	}
	if res.ToolCalls != 2 || !res.Verification.Completed || res.Error == nil || !strings.HasPrefix(res.Summary, "Not completed: the tool backend was lost") {
		t.Fatalf("the run must go on after the restart and say why it is not completed: %+v", res)
	}
	if h.count(core.EvOperationUnknown) != 1 || h.count(core.EvToolBackendRestarted) != 1 || h.count(core.EvToolBackendLost) != 1 {
		t.Fatalf("unknown %d restarted %d lost %d", h.count(core.EvOperationUnknown), h.count(core.EvToolBackendRestarted), h.count(core.EvToolBackendLost))
	}
	for _, ev := range h.events {
		if ev.Type == core.EvOperationResult && string(ev.Data) != "" && json.Valid(ev.Data) {
			var d struct{ To string }
			json.Unmarshal(ev.Data, &d)
			if d.To == string(core.OpFailed) {
				t.Fatalf("an operation whose backend vanished was recorded failed: %s", ev.Data)
			}
		}
	}
}

func TestLostBackendTwiceFailsTheTaskEvenWithAWaiver(t *testing.T) {
	h := newHarness(t, nil, twoExecs, "exec:true")
	dt := &dyingTools{Tools: h.runner.Tools, lose: 2}
	h.runner.Tools = dt
	res := h.runner.Run(context.Background(), taskStart{Request: "run", NoVerify: true})
	if res.Status != string(core.CodeFailed) || res.Reason != ReasonToolBackendLost || res.ExitCode() != 1 || dt.restarts != 1 {
		t.Fatalf("second loss must fail the task: %+v (restarts %d)", res, dt.restarts)
	}
	if h.count(core.EvOperationUnknown) != 2 || h.count(core.EvToolBackendRestarted) != 1 {
		t.Fatalf("unknown %d restarted %d", h.count(core.EvOperationUnknown), h.count(core.EvToolBackendRestarted))
	}
}

// A backend that cannot be restarted stops the task at the first loss.
func TestLostBackendWithoutRestartFailsAtOnce(t *testing.T) {
	h := newHarness(t, nil, twoExecs, "exec:true")
	h.runner.Tools = &struct{ Tools }{&dyingTools{Tools: h.runner.Tools, lose: 1}}
	res := h.runner.Run(context.Background(), taskStart{Request: "run", NoVerify: true})
	if res.Status != string(core.CodeFailed) || res.Reason != ReasonToolBackendLost {
		t.Fatalf("result: %+v", res)
	}
	if h.count(core.EvToolBackendRestarted) != 0 || h.count(core.EvOperationUnknown) != 1 {
		t.Fatalf("restarted %d unknown %d", h.count(core.EvToolBackendRestarted), h.count(core.EvOperationUnknown))
	}
}

// A verification command that passes after the restart proves the final
// state, not what the lost call did: still not completed.
func TestLostBackendWithPassingVerificationIsNotCompleted(t *testing.T) {
	h := newHarness(t, nil, twoExecs, "exec:true")
	dt := &dyingTools{Tools: h.runner.Tools, lose: 1}
	h.runner.Tools = dt
	res := h.runner.Run(context.Background(), taskStart{Request: "run", Verify: "true"})
	if res.Status != string(core.CodeFailed) || res.Reason != ReasonToolBackendLost || dt.restarts != 1 {
		t.Fatalf("result: %+v (restarts %d)", res, dt.restarts)
	}
	if res.Verification.Verification != VerifyPassed {
		t.Fatalf("the passing verification stays in the result as evidence: %+v", res.Verification)
	}
}
