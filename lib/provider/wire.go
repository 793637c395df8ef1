package provider

import (
	"encoding/json"
	"strconv"

	"github.com/josecorral/fluzo/lib/core"
)

// Wire shapes of the Chat Completions protocol, decoded leniently: unknown
// fields are ignored and every optional field is a pointer so that absent
// and empty stay distinguishable.

type wireChunk struct {
	Model   string          `json:"model"`
	Choices []wireChoice    `json:"choices"`
	Usage   *wireUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int          `json:"index"`
	Delta        *wireMessage `json:"delta"`
	Message      *wireMessage `json:"message"`
	FinishReason *string      `json:"finish_reason"`
}

type wireMessage struct {
	Content          *string        `json:"content"`
	ReasoningContent *string        `json:"reasoning_content"`
	Reasoning        *string        `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
}

type wireToolCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens     *int64 `json:"prompt_tokens"`
	CompletionTokens *int64 `json:"completion_tokens"`
}

// argumentsText returns a call's arguments fragment: normally a JSON
// string; some servers send the arguments object itself.
func argumentsText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	return string(raw), nil
}

// Encoding of requests.

type wireRequest struct {
	Model         string            `json:"model"`
	Messages      []wireOutMessage  `json:"messages"`
	Tools         []wireOutTool     `json:"tools,omitempty"`
	MaxTokens     int               `json:"max_tokens,omitempty"`
	Temperature   *float64          `json:"temperature,omitempty"`
	Stream        bool              `json:"stream"`
	StreamOptions map[string]bool   `json:"stream_options,omitempty"`
	Extra         map[string]string `json:"-"`
}

type wireOutMessage struct {
	Role       Role              `json:"role"`
	Content    *string           `json:"content"`
	ToolCalls  []wireOutToolCall `json:"tool_calls,omitempty"`
	ToolCallID string            `json:"tool_call_id,omitempty"`
	Name       string            `json:"name,omitempty"`
}

type wireOutToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireOutTool struct {
	Type     string `json:"type"`
	Function Tool   `json:"function"`
}

func encodeRequest(r Request) ([]byte, error) {
	w := envelope(r)
	// Sized once and pointing into r (no copy of each content).
	w.Messages = make([]wireOutMessage, 0, len(r.Messages))
	for i := range r.Messages {
		w.Messages = append(w.Messages, outMessage(&r.Messages[i]))
	}
	w.Tools = outTools(r.Tools)
	return core.MarshalVerbatim(w)
}

// envelope is the request without its messages and tools.
func envelope(r Request) wireRequest {
	w := wireRequest{Model: r.Model, MaxTokens: r.MaxTokens, Temperature: r.Temperature, Stream: r.Stream}
	if r.Stream {
		w.StreamOptions = map[string]bool{"include_usage": true}
	}
	return w
}

// outMessage is m's wire form, pointing into m.
func outMessage(m *Message) wireOutMessage {
	om := wireOutMessage{Role: m.Role, ToolCallID: m.ToolCallID, Name: m.Name}
	if m.Content != "" || len(m.ToolCalls) == 0 {
		om.Content = &m.Content
	}
	if len(m.ToolCalls) > 0 {
		om.ToolCalls = make([]wireOutToolCall, 0, len(m.ToolCalls))
	}
	for _, tc := range m.ToolCalls {
		var oc wireOutToolCall
		oc.ID, oc.Type = tc.ID, "function"
		oc.Function.Name, oc.Function.Arguments = tc.Name, string(tc.Arguments)
		om.ToolCalls = append(om.ToolCalls, oc)
	}
	return om
}

func outTools(ts []Tool) []wireOutTool {
	out := make([]wireOutTool, 0, len(ts))
	for _, t := range ts {
		out = append(out, wireOutTool{Type: "function", Function: t})
	}
	return out
}

func syntheticID(n int) string { return "call_" + strconv.Itoa(n) }
