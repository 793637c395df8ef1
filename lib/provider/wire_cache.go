package provider

import (
	"bytes"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
)

// bodyCache keeps the encoding of the last request's messages and tools.
// An agent's history only grows between turns (compaction rewrites it
// rarely), so the body of a turn is the previous turn's messages plus a
// few new ones: only those are encoded, and the rest is copied. Without
// it the whole history — every tool result, escaped byte by byte — is
// re-encoded on every turn, a cost that grows with the session.
type bodyCache struct {
	mu sync.Mutex
	// msgs are deep copies of the messages last encoded (the caller's
	// slices may be reused); parts are their encodings, in order.
	msgs  []Message
	parts [][]byte
	tools []Tool
	// toolsJSON is the encoding of tools ("" when there were none).
	toolsJSON []byte
	// fresh counts the messages the last encode had to encode (tests).
	fresh int
}

// messagesKey is the envelope's messages member, encoded as null so that
// the cached array can be put in its place.
var messagesKey = []byte(`"messages":null`)

// encode returns the same bytes as encodeRequest(r).
func (c *bodyCache) encode(r Request) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	same := 0
	for same < len(r.Messages) && same < len(c.msgs) && sameMessage(r.Messages[same], c.msgs[same]) {
		same++
	}
	c.msgs, c.parts = c.msgs[:same], c.parts[:same]
	c.fresh = len(r.Messages) - same
	for _, m := range r.Messages[same:] {
		b, err := core.MarshalVerbatim(outMessage(&m))
		if err != nil {
			c.msgs, c.parts = nil, nil
			return nil, err
		}
		c.msgs, c.parts = append(c.msgs, copyMessage(m)), append(c.parts, b)
	}
	if !sameTools(r.Tools, c.tools) {
		c.tools, c.toolsJSON = nil, nil
		if len(r.Tools) > 0 {
			b, err := core.MarshalVerbatim(outTools(r.Tools))
			if err != nil {
				return nil, err
			}
			c.tools, c.toolsJSON = copyTools(r.Tools), b
		}
	}
	env, err := core.MarshalVerbatim(envelope(r))
	if err != nil {
		return nil, err
	}
	// The model is encoded before the key, as a JSON string in which a
	// quote is always escaped: the first unescaped match is the key.
	i := bytes.Index(env, messagesKey)
	if i < 0 {
		return nil, core.Errorf(core.CodeInternal, "the request envelope has no messages member")
	}
	size := len(env) + len(c.toolsJSON) + len(c.parts) + 16
	for _, p := range c.parts {
		size += len(p)
	}
	out := make([]byte, 0, size)
	out = append(out, env[:i+len(`"messages":`)]...)
	out = append(out, '[')
	for k, p := range c.parts {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	out = append(out, ']')
	if len(c.toolsJSON) > 0 {
		out = append(out, `,"tools":`...)
		out = append(out, c.toolsJSON...)
	}
	return append(out, env[i+len(messagesKey):]...), nil
}

func sameMessage(a, b Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID || a.Name != b.Name || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		x, y := a.ToolCalls[i], b.ToolCalls[i]
		if x.ID != y.ID || x.Name != y.Name || !bytes.Equal(x.Arguments, y.Arguments) {
			return false
		}
	}
	return true
}

func copyMessage(m Message) Message {
	if len(m.ToolCalls) > 0 {
		calls := make([]ToolCall, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			calls[i] = ToolCall{ID: tc.ID, Name: tc.Name, Arguments: bytes.Clone(tc.Arguments)}
		}
		m.ToolCalls = calls
	}
	return m
}

func sameTools(a, b []Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].Parameters, b[i].Parameters) {
			return false
		}
	}
	return true
}

func copyTools(ts []Tool) []Tool {
	out := make([]Tool, len(ts))
	for i, t := range ts {
		out[i] = Tool{Name: t.Name, Description: t.Description, Parameters: bytes.Clone(t.Parameters)}
	}
	return out
}
