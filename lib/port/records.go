// Package port is the client side of the fluzo-agent serve JSONL port:
// typed records for what serve writes (acks, errors, events, live updates,
// results), the commands a client sends, and a Client that runs serve as a
// child process. It imports no runtime package: the TUI and other clients
// speak the wire, never the owner's Go types.
package port

import (
	"encoding/json"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Kind says which of the port's record shapes a line is.
type Kind uint8

const (
	KindAck Kind = iota + 1
	KindError
	KindEvent
	KindLive
	KindResult
)

func (k Kind) String() string {
	switch k {
	case KindAck:
		return "ack"
	case KindError:
		return "error"
	case KindEvent:
		return "event"
	case KindLive:
		return "live"
	case KindResult:
		return "result"
	}
	return "unknown"
}

// Record is one decoded line from serve. Exactly one of the typed fields
// is set, matching Kind; Raw keeps the line for logs and tests.
type Record struct {
	Kind   Kind
	Ack    *Ack
	Error  *ErrorReply
	Event  *Event
	Live   *Live
	Result *Result
	Raw    []byte
}

// Ack answers a command: accepted, not done.
type Ack struct {
	Re   string          `json:"re"`
	Data json.RawMessage `json:"data"`
}

// ErrorReply answers a command that was refused.
type ErrorReply struct {
	Re    string     `json:"re"`
	Error core.Error `json:"error"`
}

// Event is the durable core event envelope: committed to the store before
// it is written; seq counts per session without gaps.
type Event struct {
	V         int             `json:"v"`
	ID        string          `json:"id"`
	Seq       int64           `json:"seq"`
	TS        string          `json:"ts"`
	Type      string          `json:"type"`
	Session   string          `json:"session,omitempty"`
	Task      string          `json:"task,omitempty"`
	Attempt   string          `json:"attempt,omitempty"`
	Operation string          `json:"operation,omitempty"`
	Corr      string          `json:"corr,omitempty"`
	Cause     string          `json:"cause,omitempty"`
	Trace     string          `json:"trace,omitempty"`
	Span      string          `json:"span,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// Live is a non-durable update (live.delta, live.warning, ...): it has no
// seq, may be lost and never claims an outcome.
type Live struct {
	Type    string `json:"type"`
	Task    string `json:"task,omitempty"`
	Attempt string `json:"attempt,omitempty"`
	// Kind and Text carry a model delta: kind "content" (assistant text),
	// "reasoning", "tool_call" (argument fragments) or "restart" (the
	// provider retried; what streamed so far is void).
	Kind    string `json:"kind,omitempty"`
	Text    string `json:"text,omitempty"`
	Message string `json:"message,omitempty"`
	// Operation, Tool and State carry a live.operation record: a call
	// sent to its backend. Its durable operation.dispatched event is
	// committed only with the outcome, so this is how a view shows a
	// long command as running while it runs.
	Operation string `json:"operation,omitempty"`
	Tool      string `json:"tool,omitempty"`
	State     string `json:"state,omitempty"`
}

// Result is the one record a task ends with.
type Result struct {
	Status       string          `json:"status"`
	Reason       string          `json:"reason,omitempty"`
	Session      string          `json:"session,omitempty"`
	Task         string          `json:"task,omitempty"`
	Attempt      string          `json:"attempt,omitempty"`
	Trace        string          `json:"trace,omitempty"`
	Turns        int             `json:"turns,omitempty"`
	ToolCalls    int             `json:"tool_calls,omitempty"`
	Verification *Verification   `json:"verification,omitempty"`
	Diff         *Diff           `json:"diff,omitempty"`
	Summary      string          `json:"summary,omitempty"`
	Usage        json.RawMessage `json:"usage,omitempty"`
	Error        *core.Error     `json:"error,omitempty"`
	Pending      json.RawMessage `json:"pending,omitempty"`
}

// Verification is the result's verification outcome.
type Verification struct {
	Completed    bool            `json:"completed"`
	Verification string          `json:"verification"`
	Evidence     json.RawMessage `json:"evidence,omitempty"`
}

// Diff is the diff_summary of a task: changed paths and which of them
// were already changed before the task began.
type Diff struct {
	PreExisting []string     `json:"pre_existing,omitempty"`
	Changed     []DiffChange `json:"changed,omitempty"`
}

// DiffChange is one changed path. Added and Removed are line counts when
// the runtime reports them (nil: unknown).
type DiffChange struct {
	Path        string `json:"path"`
	Kind        string `json:"kind,omitempty"`
	PreExisting bool   `json:"pre_existing,omitempty"`
	Uncertain   bool   `json:"uncertain,omitempty"`
	Added       *int   `json:"added,omitempty"`
	Removed     *int   `json:"removed,omitempty"`
}

// envelope holds the fields that tell the record shapes apart.
type envelope struct {
	V     int             `json:"v"`
	Type  string          `json:"type"`
	Re    string          `json:"re"`
	Data  json.RawMessage `json:"data"`
	Error *core.Error     `json:"error"`
}

// Decode parses one line written by serve. A line that is not a port
// record is a typed invalid_request error naming what is wrong; unknown
// fields are ignored so newer runtimes stay readable.
func Decode(line []byte) (Record, error) {
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return Record{}, core.Errorf(core.CodeInvalidRequest, "the port wrote a line that is not JSON: %s", clip(line)).
			WithHint("is the child really fluzo-agent serve?")
	}
	if env.V != 1 {
		return Record{}, core.Errorf(core.CodeInvalidRequest, "the port wrote a record with version %d, this client speaks 1", env.V).
			WithHint("use fluzo-tui and fluzo-agent from the same toolkit version")
	}
	rec := Record{Raw: append([]byte(nil), line...)}
	var err error
	switch {
	case env.Type == "ack":
		rec.Kind, rec.Ack = KindAck, &Ack{Re: env.Re, Data: env.Data}
	case env.Type == "error":
		if env.Error == nil {
			return Record{}, core.Errorf(core.CodeInvalidRequest, "the port wrote an error record without an error field")
		}
		rec.Kind, rec.Error = KindError, &ErrorReply{Re: env.Re, Error: *env.Error}
	case env.Type == "result":
		rec.Kind, rec.Result = KindResult, &Result{}
		err = json.Unmarshal(line, rec.Result)
	case strings.HasPrefix(env.Type, "live."):
		rec.Kind, rec.Live = KindLive, &Live{}
		err = json.Unmarshal(line, rec.Live)
	case env.Type != "":
		rec.Kind, rec.Event = KindEvent, &Event{}
		err = json.Unmarshal(line, rec.Event)
	default:
		return Record{}, core.Errorf(core.CodeInvalidRequest, "the port wrote a record without a type: %s", clip(line))
	}
	if err != nil {
		return Record{}, core.Errorf(core.CodeInvalidRequest, "the port wrote a malformed %s record: %s", env.Type, clip(line))
	}
	return rec, nil
}

// clip bounds a line quoted in an error message.
func clip(line []byte) string {
	const max = 120
	if len(line) > max {
		return string(line[:max]) + "..."
	}
	return string(line)
}
