// Package cards renders tool operations as conversation cards: an icon and
// title saying what ran and how it ended, then a body (file lines, matches,
// a diff preview, command output) on the panel, collapsed past ten rows.
// One renderer per tool kind; anything unknown or undecodable gets a
// generic card that says so. Failures and truncation are never collapsed
// away, and every string from arguments or results passes lib/termsafe
// before it becomes a span.
package cards

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/josecorral/fluzo/lib/core"
)

// Op is what a card shows of one operation, assembled from the port: the
// operation.* events (tool, state, rule, reason, artifact), the call's
// arguments (from permission.requested, the assistant message's tool call
// or the task query) and, when known, its outcome (the task query's
// operations[].result) and command evidence (command.result).
type Op struct {
	ID     string
	CallID string
	Tool   string
	// Args are the call's arguments as the model sent them (tool JSON).
	Args json.RawMessage
	// State is the operation's lifecycle state (core.OperationState):
	// requested, authorized, intent_committed, dispatched, succeeded,
	// failed, denied or unknown.
	State string
	// Result is the tool outcome {"ok","result","error"}, or the journal's
	// stand-in {"ok","truncated":true,"bytes"} for one too large to keep.
	Result   json.RawMessage
	Rule     string // the deciding policy rule
	Reason   string // why it was denied, or the failure's error code
	Artifact string // artifact holding the full result, when it was too large
	// Waiting marks an operation whose approval is being asked for.
	Waiting bool
	// Command is the runtime's evidence of a command run (command.result).
	Command *CommandEvidence
}

// CommandEvidence is a command.result event's data.
// A cancelled or signal-killed command has no exit code (null), never a
// made-up 0 or -1.
type CommandEvidence struct {
	Command    string `json:"command"`
	ExitCode   *int   `json:"exit_code"`
	Cancelled  bool   `json:"cancelled"`
	Signal     string `json:"signal"`
	Failure    string `json:"failure"`
	OutputTail string `json:"output_tail"`
}

// DecodeError is data a card could not decode: which record, which field,
// and the decoder's complaint in words. A card shows it instead of
// guessing.
type DecodeError struct {
	Record string // "operation.result data", "view arguments", ...
	Field  string // JSON field, "" when the record as a whole is malformed
	Reason string
}

func (e *DecodeError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("cannot decode %s: field %q %s", e.Record, e.Field, e.Reason)
	}
	return fmt.Sprintf("cannot decode %s: %s", e.Record, e.Reason)
}

// decode unmarshals raw into v, turning the decoder's error into a
// DecodeError naming record and field.
func decode(record string, raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return &DecodeError{Record: record, Reason: "is empty"}
	}
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &DecodeError{Record: record, Field: te.Field, Reason: "should be " + te.Type.String() + ", not a JSON " + te.Value}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &DecodeError{Record: record, Reason: fmt.Sprintf("is not valid JSON (at byte %d)", se.Offset)}
	}
	return &DecodeError{Record: record, Reason: "is not the expected shape"}
}

// ApplyEvent updates the operation from one port event of type typ with
// data. Events a card does not use are ignored; data that does not
// decode returns a *DecodeError and leaves o unchanged.
func (o *Op) ApplyEvent(typ string, data json.RawMessage) error {
	switch typ {
	case core.EvOperationRequested:
		var d struct {
			Tool   string `json:"tool"`
			CallID string `json:"call_id"`
			State  string `json:"state"`
		}
		if err := decode(typ+" data", data, &d); err != nil {
			return err
		}
		o.Tool, o.CallID = firstSet(d.Tool, o.Tool), firstSet(d.CallID, o.CallID)
		o.State = firstSet(d.State, string(core.OpRequested))
	case core.EvOperationDecision, core.EvOperationIntent, core.EvOperationDispatched,
		core.EvOperationResult, core.EvOperationUnknown:
		var d struct {
			Tool     string `json:"tool"`
			To       string `json:"to"`
			Rule     string `json:"rule"`
			Reason   string `json:"reason"`
			Artifact string `json:"artifact"`
		}
		if err := decode(typ+" data", data, &d); err != nil {
			return err
		}
		if d.To == "" {
			return &DecodeError{Record: typ + " data", Field: "to", Reason: "is missing"}
		}
		o.Tool, o.State = firstSet(d.Tool, o.Tool), d.To
		o.Rule, o.Reason, o.Artifact = firstSet(d.Rule, o.Rule), firstSet(d.Reason, o.Reason), firstSet(d.Artifact, o.Artifact)
		o.Waiting = false
	case core.EvPermissionRequested:
		var d struct {
			Tool string          `json:"tool"`
			Args json.RawMessage `json:"args"`
			Rule string          `json:"rule"`
		}
		if err := decode(typ+" data", data, &d); err != nil {
			return err
		}
		o.Tool, o.Rule, o.Waiting = firstSet(d.Tool, o.Tool), firstSet(d.Rule, o.Rule), true
		if len(d.Args) > 0 {
			o.Args = d.Args
		}
	case core.EvPermissionResolved:
		o.Waiting = false
	case core.EvCommandResult:
		var d CommandEvidence
		if err := decode(typ+" data", data, &d); err != nil {
			return err
		}
		o.Command = &d
	}
	return nil
}

// DecodeOperation reads one operation record of the task query
// (core.Operation as JSON). Its args and result are bytes, which JSON
// carries as base64; raw JSON is accepted too.
func DecodeOperation(raw json.RawMessage) (Op, error) {
	var r struct {
		ID       string          `json:"id"`
		Tool     string          `json:"tool"`
		CallID   string          `json:"call_id"`
		Args     json.RawMessage `json:"args"`
		State    string          `json:"state"`
		Rule     string          `json:"rule"`
		Result   json.RawMessage `json:"result"`
		Artifact string          `json:"artifact"`
	}
	if err := decode("operation record", raw, &r); err != nil {
		return Op{}, err
	}
	args, err := bytesField("args", r.Args)
	if err != nil {
		return Op{}, err
	}
	result, err := bytesField("result", r.Result)
	if err != nil {
		return Op{}, err
	}
	return Op{ID: r.ID, Tool: r.Tool, CallID: r.CallID, Args: args, State: r.State, Rule: r.Rule, Result: result, Artifact: r.Artifact}, nil
}

// bytesField returns a []byte field of a record: base64 in a JSON string
// (how encoding/json writes []byte), or JSON as is.
func bytesField(name string, raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '"' {
		return raw, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, &DecodeError{Record: "operation record", Field: name, Reason: "is not a JSON string"}
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, &DecodeError{Record: "operation record", Field: name, Reason: "is not base64"}
	}
	return b, nil
}

func firstSet(v, old string) string {
	if v != "" {
		return v
	}
	return old
}

// DecodeTaskOperations reads the operations of a task query's answer
// ({"task","attempts","operations":{"att_…":[operation, …]},…}), keyed by
// operation id. The port's operation.result event says how an operation
// ended but not what it returned; this is where a card's result comes
// from. One undecodable record fails the whole answer, naming it.
func DecodeTaskOperations(data json.RawMessage) (map[string]Op, error) {
	var d struct {
		Operations map[string][]json.RawMessage `json:"operations"`
	}
	if err := decode("task answer", data, &d); err != nil {
		return nil, err
	}
	ops := map[string]Op{}
	for attempt, list := range d.Operations {
		for i, raw := range list {
			op, err := DecodeOperation(raw)
			if err != nil {
				var de *DecodeError
				if errors.As(err, &de) {
					de.Record = fmt.Sprintf("task answer operations[%q][%d]", attempt, i)
				}
				return nil, err
			}
			ops[op.ID] = op
		}
	}
	return ops, nil
}
