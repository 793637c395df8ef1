package cards

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The port's event sequence for an exec that needed approval builds the
// Op a card shows, state by state.
func TestApplyEventSequence(t *testing.T) {
	var op Op
	steps := []struct {
		typ, data string
		state     string
		waiting   bool
	}{
		{"operation.requested", `{"tool":"exec","call_id":"call_1","state":"requested"}`, "requested", false},
		{"permission.requested", `{"operation":"op_1","tool":"exec","args":{"argv":["cargo","test"]},"rule":"ask:exec"}`, "requested", true},
		{"permission.resolved", `{"operation":"op_1","verdict":"allow"}`, "requested", false},
		{"operation.decision", `{"tool":"exec","from":"requested","to":"authorized","decision":"allow","rule":"approved by the user (once)"}`, "authorized", false},
		{"operation.intent", `{"tool":"exec","from":"authorized","to":"intent_committed"}`, "intent_committed", false},
		{"operation.dispatched", `{"tool":"exec","from":"intent_committed","to":"dispatched"}`, "dispatched", false},
		{"command.result", `{"command":"cargo test","exit_code":0,"failure":"","edit_seq":1,"output_tail":"ok"}`, "dispatched", false},
		{"operation.result", `{"tool":"exec","from":"dispatched","to":"succeeded"}`, "succeeded", false},
		{"message", `{"role":"assistant"}`, "succeeded", false}, // not an operation event: ignored
	}
	for _, s := range steps {
		if err := op.ApplyEvent(s.typ, json.RawMessage(s.data)); err != nil {
			t.Fatalf("%s: %v", s.typ, err)
		}
		if op.State != s.state || op.Waiting != s.waiting {
			t.Errorf("after %s: state %q waiting %v, want %q %v", s.typ, op.State, op.Waiting, s.state, s.waiting)
		}
	}
	if op.Tool != "exec" || op.CallID != "call_1" || string(op.Args) != `{"argv":["cargo","test"]}` || op.Rule != "approved by the user (once)" || op.Command == nil || op.Command.OutputTail != "ok" {
		t.Errorf("op = %+v", op)
	}
	title := rowsText(Render(op, Options{Width: 60})[:1])
	if title != "✓ exec cargo test · exit 0\n" {
		t.Errorf("title = %q", title)
	}
}

func TestApplyEventBadDataIsTyped(t *testing.T) {
	cases := []struct {
		typ, data, field, reason string
	}{
		{"operation.result", `{"to": 3}`, "to", "should be string"},
		{"operation.result", `{"tool":"exec"}`, "to", "is missing"},
		{"operation.requested", `[1,2]`, "", "should be"},
		{"permission.requested", `{"tool":`, "", "is not valid JSON"},
		{"command.result", `{"exit_code":"zero"}`, "exit_code", "should be int"},
		{"operation.intent", ``, "", "is empty"},
	}
	for _, c := range cases {
		op := Op{Tool: "view", State: "dispatched"}
		err := op.ApplyEvent(c.typ, json.RawMessage(c.data))
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("%s %s: err = %v, want *DecodeError", c.typ, c.data, err)
		}
		if de.Field != c.field || !strings.Contains(de.Error(), c.reason) || !strings.Contains(de.Error(), c.typ+" data") {
			t.Errorf("%s %s: %q (field %q)", c.typ, c.data, de.Error(), de.Field)
		}
		if op.State != "dispatched" || op.Tool != "view" {
			t.Errorf("a rejected event changed the op: %+v", op)
		}
	}
}

func TestDecodeOperation(t *testing.T) {
	args := `{"path":"src/lib.rs"}`
	res := `{"ok":true,"result":{"path":"src/lib.rs","content":"     1\tfn main() {}\n","first_line":1,"lines_shown":1,"total_lines":1}}`
	// As the task query writes core.Operation: []byte fields in base64.
	rec := `{"id":"op_1","attempt":"att_1","tool":"view","call_id":"c1","args":"` + base64.StdEncoding.EncodeToString([]byte(args)) +
		`","state":"succeeded","result":"` + base64.StdEncoding.EncodeToString([]byte(res)) + `","created_at":"2026-12-01T00:00:00Z"}`
	op, err := DecodeOperation(json.RawMessage(rec))
	if err != nil {
		t.Fatal(err)
	}
	if op.ID != "op_1" || op.Tool != "view" || string(op.Args) != args || string(op.Result) != res || op.State != "succeeded" {
		t.Errorf("op = %+v", op)
	}
	if got := rowsText(Render(op, Options{Width: 60})); got != "✓ view src/lib.rs · 1 line\n       1  fn main() {}                                      \n" {
		t.Errorf("card = %q", got)
	}
	// Raw JSON fields are accepted as well.
	if op, err := DecodeOperation(json.RawMessage(`{"id":"op_2","tool":"ls","args":{"path":"."},"state":"dispatched"}`)); err != nil || string(op.Args) != `{"path":"."}` {
		t.Errorf("raw args: %+v %v", op, err)
	}
	for _, bad := range []string{`{"args":"!!!"}`, `{"result":"aGk"}`, `{"id":5}`, `nope`} {
		var de *DecodeError
		if _, err := DecodeOperation(json.RawMessage(bad)); !errors.As(err, &de) {
			t.Errorf("%s: err = %v, want *DecodeError", bad, err)
		}
	}
}

func TestDecodeTaskOperations(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	ans := `{"task":{"id":"tsk_1"},"attempts":[],"operations":{"att_1":[` +
		`{"id":"op_1","tool":"view","args":"` + b64(`{"path":"a"}`) + `","state":"succeeded","result":"` + b64(`{"ok":true,"result":{"path":"a","content":"x\n","first_line":1,"lines_shown":1,"total_lines":1}}`) + `"},` +
		`{"id":"op_2","tool":"exec","args":"` + b64(`{"argv":["make"]}`) + `","state":"denied","rule":"deny:exec"}]},"grants":[]}`
	ops, err := DecodeTaskOperations(json.RawMessage(ans))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops["op_1"].Tool != "view" || ops["op_2"].State != "denied" || ops["op_2"].Rule != "deny:exec" {
		t.Errorf("ops = %+v", ops)
	}
	_, err = DecodeTaskOperations(json.RawMessage(`{"operations":{"att_1":[{"id":"op_1","args":"%%"}]}}`))
	var de *DecodeError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), `task answer operations["att_1"][0]: field "args" is not base64`) {
		t.Errorf("err = %v", err)
	}
}
