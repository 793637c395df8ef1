package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/josecorral/fluzo/lib/core"

	"github.com/josecorral/fluzo/lib/provider"
)

// providerModel is the model over an OpenAI-compatible provider client.
type providerModel struct {
	Client *provider.Client
	Name   string // model name sent to the endpoint

	// The tool schemas rarely change; their conversion is kept.
	mu        sync.Mutex
	toolsRaw  string
	toolsConv []provider.Tool

	// The history grows by a turn between requests: the conversion of
	// the last one sent is kept (with a copy of what it converted, since
	// the caller's slice may change in place) and only what differs from
	// it is converted again.
	convFrom []message
	conv     []provider.Message
}

// Complete converts the agent's history to the provider's messages and
// streams the request; only complete tool calls come back.
func (p *providerModel) Complete(ctx context.Context, req modelRequest, live func(liveDelta)) (modelResponse, error) {
	preq := provider.Request{Model: p.Name, MaxTokens: req.MaxTokens, Stream: true, Messages: p.messages(req.Messages)}
	if len(req.Tools) > 0 {
		tools, err := p.tools(req.Tools)
		if err != nil {
			return modelResponse{}, err
		}
		preq.Tools = tools
	}
	resp, err := p.Client.Chat(ctx, preq, func(d provider.Delta) {
		if live != nil {
			live(liveDelta{Kind: string(d.Kind), Text: d.Text})
		}
	})
	traceProviderAttempts(ctx, resp, err)
	if err != nil {
		return modelResponse{}, err
	}
	out := modelResponse{Model: resp.Model, Content: resp.Content, FinishReason: resp.FinishReason,
		Usage:    usage{Input: resp.Usage.Input, Output: resp.Usage.Output, Source: resp.Usage.Source},
		Estimate: usage{Input: resp.Estimate.Input, Output: resp.Estimate.Output, Source: resp.Estimate.Source}}
	for _, c := range resp.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, toolCall{ID: c.ID, Name: c.Name, Args: c.Arguments})
	}
	return out, nil
}

func toProviderMessages(msgs []message) []provider.Message {
	out := make([]provider.Message, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, toProviderMessage(m))
	}
	return out
}

func toProviderMessage(m message) provider.Message {
	pm := provider.Message{Role: provider.Role(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
	if len(m.ToolCalls) > 0 {
		pm.ToolCalls = make([]provider.ToolCall, 0, len(m.ToolCalls))
	}
	for _, c := range m.ToolCalls {
		pm.ToolCalls = append(pm.ToolCalls, provider.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
	}
	return pm
}

// messages converts msgs, reusing the conversion of the longest prefix
// they share with the last history converted.
func (p *providerModel) messages(msgs []message) []provider.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for n < len(msgs) && n < len(p.convFrom) && sameMessage(&msgs[n], &p.convFrom[n]) {
		n++
	}
	if n < len(p.conv) {
		// The history changed (a compaction): capped at n, so the slice
		// an earlier request got is never written over.
		p.conv = p.conv[:n:n]
	}
	p.convFrom = p.convFrom[:n]
	for _, m := range msgs[n:] {
		p.conv = append(p.conv, toProviderMessage(m))
		p.convFrom = append(p.convFrom, m)
	}
	return p.conv
}

// sameMessage compares every field the conversion reads (strings that
// share memory compare in constant time).
func sameMessage(a, b *message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		x, y := &a.ToolCalls[i], &b.ToolCalls[i]
		if x.ID != y.ID || x.Name != y.Name || string(x.Args) != string(y.Args) {
			return false
		}
	}
	return true
}

// providerTools converts OpenAI function-tool schemas (fluzo-tool schema's
// format) to the provider's tool definitions.
func providerTools(raw json.RawMessage) ([]provider.Tool, error) {
	var schemas []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &schemas); err != nil {
		return nil, core.Wrap(err, core.CodeInternal, "the tool schemas are not function-tool definitions")
	}
	out := make([]provider.Tool, 0, len(schemas))
	for _, s := range schemas {
		out = append(out, provider.Tool{Name: s.Function.Name, Description: s.Function.Description, Parameters: s.Function.Parameters})
	}
	return out, nil
}

func (p *providerModel) tools(raw json.RawMessage) ([]provider.Tool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.toolsConv != nil && p.toolsRaw == string(raw) {
		return p.toolsConv, nil
	}
	conv, err := providerTools(raw)
	if err != nil {
		return nil, err
	}
	p.toolsRaw, p.toolsConv = string(raw), conv
	return conv, nil
}
