package acp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/port"
)

func ev(typ, task, op, data string) *port.Event {
	return &port.Event{Type: typ, Task: task, Operation: op, Data: json.RawMessage(data)}
}

func staticOps(ops map[string]opInfo) func(string, bool) map[string]opInfo {
	return func(string, bool) map[string]opInfo { return ops }
}

func TestLiveTextIsNotSentTwice(t *testing.T) {
	tr := newTranslator("/w", true, staticOps(nil))
	if u := tr.delta(&port.Live{Type: "live.delta", Kind: "content", Text: "hel"}); len(u) != 1 || u[0].AgentMessageChunk == nil {
		t.Fatalf("a content delta is a message chunk: %+v", u)
	}
	if u := tr.event(ev("message", "t", "", `{"role":"assistant","content":"hello"}`)); len(u) != 0 {
		t.Fatalf("the streamed turn's message must not repeat it: %+v", u)
	}
	// A turn with no deltas (a provider that does not stream) still shows.
	if u := tr.event(ev("message", "t", "", `{"role":"assistant","content":"again"}`)); len(u) != 1 || u[0].AgentMessageChunk.Content.Text.Text != "again" {
		t.Fatalf("an unstreamed message: %+v", u)
	}
	if u := tr.delta(&port.Live{Type: "live.delta", Kind: "reasoning", Text: "hmm"}); len(u) != 1 || u[0].AgentThoughtChunk == nil {
		t.Fatalf("reasoning is a thought chunk: %+v", u)
	}
}

func TestToolCallsCarryKindLocationAndDiff(t *testing.T) {
	ops := map[string]opInfo{
		"op_e": {ID: "op_e", Tool: "edit", Args: []byte(`{"path":"src/lib.rs","old_string":"a","new_string":"b","expect_version":"v1"}`),
			Result: []byte(`{"ok":true,"result":{"version":"v2"}}`)},
		"op_w": {ID: "op_w", Tool: "write", Args: []byte(`{"path":"new.rs","content":"fn x(){}","expect_version":"absent"}`)},
		"op_o": {ID: "op_o", Tool: "write", Args: []byte(`{"path":"old.rs","content":"fn y(){}","expect_version":"v9"}`)},
		"op_x": {ID: "op_x", Tool: "exec", CallID: "verify_att_1", Args: []byte(`{"argv":["cargo","test"]}`),
			Result: []byte(`{"ok":true,"result":{"exit_code":0,"stdout":"4 passed"}}`)},
	}
	tr := newTranslator("/w", false, staticOps(ops))
	u := tr.event(ev("operation.requested", "t", "op_e", `{"tool":"edit","call_id":"c1"}`))
	call := u[0].ToolCall
	if call == nil || call.Kind != sdk.ToolKindEdit || call.Title != "Edit src/lib.rs" || call.Locations[0].Path != "/w/src/lib.rs" ||
		call.Content[0].Diff == nil || call.Content[0].Diff.NewText != "b" || *call.Content[0].Diff.OldText != "a" {
		t.Fatalf("edit tool_call: %+v", call)
	}
	if d := tr.event(ev("operation.requested", "t", "op_w", `{"tool":"write"}`))[0].ToolCall.Content; len(d) != 1 || d[0].Diff.OldText != nil {
		t.Fatalf("a created file is a diff without old text: %+v", d)
	}
	if d := tr.event(ev("operation.requested", "t", "op_o", `{"tool":"write"}`))[0].ToolCall.Content; len(d) != 0 {
		t.Fatalf("an overwrite's old text is unknown, so it has no diff (ACP would read it as a new file): %+v", d)
	}
	x := tr.event(ev("operation.requested", "t", "op_x", `{"tool":"exec","call_id":"verify_att_1"}`))[0].ToolCall
	if x.Kind != sdk.ToolKindExecute || x.Title != "Verify: cargo test" {
		t.Fatalf("verification call: %+v", x)
	}
	done := tr.event(ev("operation.result", "t", "op_x", `{"to":"succeeded","tool":"exec"}`))[0].ToolCallUpdate
	if *done.Status != sdk.ToolCallStatusCompleted || !strings.Contains(done.Content[0].Content.Content.Text.Text, "4 passed\n(exit code 0)") {
		t.Fatalf("command result: %+v", done)
	}
	denied := tr.event(ev("operation.decision", "t", "op_e", `{"to":"denied","rule":"policy.exec=deny"}`))[0].ToolCallUpdate
	if *denied.Status != sdk.ToolCallStatusFailed || !strings.Contains(denied.Content[0].Content.Content.Text.Text, "Denied (rule policy.exec=deny); it was not run.") {
		t.Fatalf("denied: %+v", denied)
	}
}

func TestReplayShowsTheRequestAndEndsWithTheVerdict(t *testing.T) {
	tr := newTranslator("/w", false, staticOps(nil))
	u := tr.event(ev("task.created", "tsk_1", "", `{"request":"fix it","verify":"cargo test"}`))
	if u[0].UserMessageChunk == nil || u[0].UserMessageChunk.Content.Text.Text != "fix it" || u[1].Plan == nil || u[1].Plan.Entries[1].Content != "Verify with cargo test" {
		t.Fatalf("task.created: %+v", u)
	}
	tr.event(ev("verification.result", "tsk_1", "", `{"completed":true,"verification":"passed","evidence":{"command":"cargo test"}}`))
	tr.event(ev("diff.summary", "tsk_1", "", `{"changed":[{"path":"src/lib.rs","kind":"modified"}]}`))
	end := tr.event(ev("task.state", "tsk_1", "", `{"from":"running","to":"completed"}`))
	if got := end[0].AgentMessageChunk.Content.Text.Text; got != "\n\nFluzo: task tsk_1 ended completed; verification passed (`cargo test`). Changed: src/lib.rs." {
		t.Fatalf("final message: %q", got)
	}
	// Live, the final message is the result's, not the state change's.
	live := newTranslator("/w", true, staticOps(nil))
	if u := live.event(ev("task.state", "tsk_1", "", `{"to":"completed"}`)); len(u) != 0 {
		t.Fatalf("live task.state: %+v", u)
	}
	if u := live.event(ev("task.created", "tsk_1", "", `{"request":"fix it"}`)); u[0].UserMessageChunk != nil {
		t.Fatalf("live, the editor shows its own prompt: %+v", u)
	}
}

// A call sent to its backend is in progress for the editor while it runs,
// before its durable events (which arrive with the outcome).
func TestLiveOperationMarksTheCallInProgress(t *testing.T) {
	tr := newTranslator("/w", true, staticOps(nil))
	u := tr.delta(&port.Live{Type: "live.operation", Operation: "op_1", Tool: "exec", State: "dispatched"})
	if len(u) != 1 || u[0].ToolCallUpdate == nil || u[0].ToolCallUpdate.ToolCallId != "op_1" ||
		u[0].ToolCallUpdate.Status == nil || *u[0].ToolCallUpdate.Status != sdk.ToolCallStatusInProgress {
		t.Fatalf("live.operation: %+v", u)
	}
}
