package core

import (
	"bytes"
	"encoding/json"
	"io"
)

// Command is a request on a JSONL port or control socket. The command's
// own arguments are decoded separately (and strictly) by its handler.
type Command struct {
	V   int    `json:"v"`
	ID  string `json:"id"`
	Cmd string `json:"cmd"`
}

// Ack acknowledges a command; it is not completion — outcomes arrive as
// events.
type Ack struct {
	V    int    `json:"v"`
	Type string `json:"type"` // "ack"
	Re   string `json:"re"`
	Data any    `json:"data,omitempty"`
}

// ErrorRecord is the wire form of a typed error answering a command.
type ErrorRecord struct {
	V     int    `json:"v"`
	Type  string `json:"type"` // "error"
	Re    string `json:"re,omitempty"`
	Error *Error `json:"error"`
}

// NewAck returns an ack for request id.
func NewAck(re string, data any) Ack { return Ack{V: WireVersion, Type: "ack", Re: re, Data: data} }

// NewErrorRecord returns the wire error answering request id.
func NewErrorRecord(re string, err error) ErrorRecord {
	return ErrorRecord{V: WireVersion, Type: "error", Re: re, Error: AsError(err)}
}

// DecodeStrict decodes one JSON object into v, rejecting unknown fields
// and trailing data: commands and tool arguments are closed schemas.
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Wrap(err, CodeInvalidRequest, "the request does not match its schema: "+DescribeJSONError(err)).
			WithHint("check field names and types against the documented schema")
	}
	if dec.More() {
		return Errorf(CodeInvalidRequest, "the request has data after its JSON object").
			WithHint("send exactly one JSON object per line")
	}
	return nil
}

// MarshalVerbatim encodes v as compact JSON the way a model must read it:
// unlike json.Marshal, "<", ">" and "&" stay as they are instead of
// becoming \u003c, \u003e and \u0026. Code is full of them (i < n, &&), and
// JSON that is later embedded in a message's text (a tool result, a
// summary, a tool call's arguments) would otherwise show the model escape
// sequences instead of the code. Every encoding on the model path uses it.
func MarshalVerbatim(v any) ([]byte, error) {
	// Events are most of what is written (every line of --json output and
	// of the port): they take the appender, which writes the same bytes.
	switch e := v.(type) {
	case Event:
		if b, ok := e.AppendJSON(make([]byte, 0, 256+len(e.Data))); ok {
			return b, nil
		}
	case *Event:
		if e != nil {
			if b, ok := e.AppendJSON(make([]byte, 0, 256+len(e.Data))); ok {
				return b, nil
			}
		}
	case map[string]any: // live records (live.delta)
		if b, ok := (jsonValues{}).appendMap(make([]byte, 0, 128), e, true); ok {
			return b, nil
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// NewVerbatimEncoder returns a JSON Lines encoder that, like
// MarshalVerbatim, writes "<", ">" and "&" verbatim.
func NewVerbatimEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// DecodeCommand decodes a port command strictly, as DecodeStrict does, and
// refuses it when one of the required fields is absent or null: a missing
// "on" must not read as false, nor a missing "text" as an empty message.
func DecodeCommand(data []byte, v any, required ...string) error {
	if err := DecodeStrict(data, v); err != nil {
		return err
	}
	if len(required) == 0 {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return Wrap(err, CodeInvalidRequest, "the request does not match its schema: "+DescribeJSONError(err))
	}
	var head Command
	_ = json.Unmarshal(data, &head)
	for _, name := range required {
		if raw, ok := fields[name]; !ok || string(bytes.TrimSpace(raw)) == "null" {
			return Errorf(CodeInvalidRequest, "%s needs the field %q", orCommand(head.Cmd), name).
				With("field", name).
				WithHint("send %q in the command; see the port's command reference in fluzo-agent-serve(1)", name)
		}
	}
	return nil
}

func orCommand(cmd string) string {
	if cmd == "" {
		return "the command"
	}
	return cmd
}
