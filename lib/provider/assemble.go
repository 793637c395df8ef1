package provider

import (
	"bytes"
	"encoding/json"
	"strings"
)

// assembler turns streamed chunks into one Response. It tolerates the
// dialects of real servers (see doc.go) and keeps every buffer bounded.
type assembler struct {
	lim       Limits
	model     string
	content   strings.Builder
	reasoning strings.Builder
	calls     []*callBuf
	byIndex   map[int]int // wire index → position in calls
	finish    string
	usage     *wireUsage
	output    bool // meaningful output seen
	attempt   int
}

type callBuf struct {
	id, name string
	args     strings.Builder
}

func newAssembler(lim Limits, attempt int) *assembler {
	return &assembler{lim: lim, byIndex: map[int]int{}, attempt: attempt}
}

// add folds one chunk in; emit receives live deltas (may be nil).
func (a *assembler) add(c *wireChunk, emit func(Delta)) error {
	if c.Model != "" && a.model == "" {
		a.model = c.Model
	}
	if c.Usage != nil {
		a.usage = c.Usage
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue // we ask for one choice; others are not ours
		}
		msg := ch.Delta
		if msg == nil {
			msg = ch.Message
		}
		if msg != nil {
			if err := a.addMessage(msg, emit); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
		}
	}
	return nil
}

func (a *assembler) addMessage(m *wireMessage, emit func(Delta)) error {
	if m.Content != nil && *m.Content != "" {
		if err := a.appendText(&a.content, *m.Content, "content"); err != nil {
			return err
		}
		a.emit(emit, Delta{Kind: DeltaContent, Text: *m.Content})
	}
	r := m.ReasoningContent
	if r == nil {
		r = m.Reasoning
	}
	if r != nil && *r != "" {
		if err := a.appendText(&a.reasoning, *r, "reasoning"); err != nil {
			return err
		}
		a.emit(emit, Delta{Kind: DeltaReasoning, Text: *r})
	}
	for i := range m.ToolCalls {
		if err := a.addCall(&m.ToolCalls[i], emit); err != nil {
			return err
		}
	}
	return nil
}

func (a *assembler) appendText(b *strings.Builder, s, what string) error {
	if b.Len()+len(s) > a.lim.MaxContentBytes {
		return newError(ClassProtocol, "the response %s exceeds %d bytes", what, a.lim.MaxContentBytes).
			With("limit", a.lim.MaxContentBytes)
	}
	b.WriteString(s)
	a.output = true
	return nil
}

// addCall folds one tool-call delta. A call is found by its wire index;
// without an index it continues the current call unless it carries a new
// id. A complete call followed by a delta with a different id at the same
// index (servers that send each whole call as index 0) starts a new call.
func (a *assembler) addCall(d *wireToolCall, emit func(Delta)) error {
	frag, err := argumentsText(d.Function.Arguments)
	if err != nil {
		return newError(ClassProtocol, "a tool-call delta has undecodable arguments")
	}
	pos := a.locate(d)
	if pos < 0 {
		if len(a.calls) >= a.lim.MaxToolCalls {
			return newError(ClassProtocol, "the response has more than %d tool calls", a.lim.MaxToolCalls).
				With("limit", a.lim.MaxToolCalls)
		}
		a.calls = append(a.calls, &callBuf{})
		pos = len(a.calls) - 1
		if d.Index != nil {
			a.byIndex[*d.Index] = pos
		}
	}
	cb := a.calls[pos]
	if cb.id == "" && d.ID != "" {
		cb.id = d.ID
	}
	if cb.name == "" && d.Function.Name != "" {
		cb.name = d.Function.Name
	}
	if cb.args.Len()+len(frag) > a.lim.MaxArgumentsBytes {
		return newError(ClassProtocol, "tool call %q has arguments over %d bytes", cb.name, a.lim.MaxArgumentsBytes).
			With("limit", a.lim.MaxArgumentsBytes)
	}
	cb.args.WriteString(frag)
	a.output = true
	a.emit(emit, Delta{Kind: DeltaToolCall, Text: frag, ToolIndex: pos, ToolName: cb.name})
	return nil
}

// locate returns the position of the call d continues, or -1 for a new one.
func (a *assembler) locate(d *wireToolCall) int {
	var pos int
	if d.Index != nil {
		p, ok := a.byIndex[*d.Index]
		if !ok {
			return -1
		}
		pos = p
	} else {
		if len(a.calls) == 0 {
			return -1
		}
		pos = len(a.calls) - 1
	}
	cb := a.calls[pos]
	if d.ID != "" && cb.id != "" && d.ID != cb.id && cb.complete() {
		return -1
	}
	// Without an index, a named delta after a complete call is the next
	// call even when the server sends no ids.
	if d.Index == nil && d.Function.Name != "" && cb.complete() {
		return -1
	}
	return pos
}

func (cb *callBuf) complete() bool {
	s := strings.TrimSpace(cb.args.String())
	return s != "" && json.Valid([]byte(s))
}

func (a *assembler) emit(emit func(Delta), d Delta) {
	if emit != nil {
		d.Attempt = a.attempt
		emit(d)
	}
}

// toolCalls validates and returns the assembled calls: each must have a
// name and arguments that are one JSON object ("" counts as {}). Anything
// else is a protocol error and no call at all is returned.
func (a *assembler) toolCalls() ([]ToolCall, error) {
	var out []ToolCall
	for i, cb := range a.calls {
		if cb.name == "" {
			return nil, newError(ClassProtocol, "tool call %d has no function name; no tool call was executed", i)
		}
		args := bytes.TrimSpace([]byte(cb.args.String()))
		if len(args) == 0 {
			args = []byte("{}")
		}
		if !json.Valid(args) || args[0] != '{' {
			return nil, newError(ClassProtocol, "tool call %q has arguments that are not a complete JSON object; no tool call was executed", printable(clip(cb.name, 64))).
				With("tool", printable(clip(cb.name, 64)))
		}
		id := cb.id
		if id == "" {
			id = syntheticID(i)
		}
		out = append(out, ToolCall{ID: id, Name: cb.name, Arguments: json.RawMessage(args)})
	}
	return out, nil
}

// response builds the final Response (attempts are added by the caller).
func (a *assembler) response(req *Request) (*Response, error) {
	calls, err := a.toolCalls()
	if err != nil {
		return nil, err
	}
	resp := &Response{
		Model: a.model, Content: a.content.String(), Reasoning: a.reasoning.String(),
		ToolCalls: calls, FinishReason: a.finish,
		Usage: Usage{Source: UsageUnknown},
	}
	if a.usage != nil && (a.usage.PromptTokens != nil || a.usage.CompletionTokens != nil) {
		resp.Usage = Usage{Input: a.usage.PromptTokens, Output: a.usage.CompletionTokens, Source: UsageReported}
	}
	resp.Estimate = EstimateUsage(req, resp)
	return resp, nil
}
