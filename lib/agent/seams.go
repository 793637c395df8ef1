package agent

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
)

// The loop talks to the model, the execution backend, policy and the store
// through the small interfaces below. Each is implemented by an adapter
// over the real package (provider, tools, policy, store); keeping them
// narrow keeps the loop readable and shows exactly what it depends on.

// Purposes of model requests; every one goes through admission and budgets.
const (
	PurposeTurn       = "turn"
	PurposeCompaction = "compaction"
	PurposeFinalize   = "finalize"
)

// ModelRequest is one request to the generative model.
type ModelRequest struct {
	Purpose  string
	Messages []Message
	// Tools is nil for text-only requests (finalization, compaction).
	Tools     json.RawMessage
	MaxTokens int
}

// Usage is token usage; nil counts are unknown, never zero.
type Usage struct {
	Input  *int64 `json:"input"`
	Output *int64 `json:"output"`
	Source string `json:"source"`
}

// ModelResponse is a complete response: only complete tool calls.
type ModelResponse struct {
	Model        string
	Content      string
	ToolCalls    []ToolCall
	FinishReason string
	Usage        Usage
	Estimate     Usage
}

// LiveDelta is non-durable streaming progress, for display only.
type LiveDelta struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Model sends one request. Errors are typed (provider_error, cancelled).
type Model interface {
	Complete(ctx context.Context, req ModelRequest, live func(LiveDelta)) (ModelResponse, error)
}

// ToolOutcome is the answer of the execution backend to one call.
type ToolOutcome struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *core.Error     `json:"error,omitempty"`
}

// Tools is the execution backend (a fluzo-tool serve child).
type Tools interface {
	Call(ctx context.Context, tool string, args json.RawMessage) (ToolOutcome, error)
	// Cancel asks the backend to end the call's owned processes
	// gracefully; Kill force-stops them.
	Cancel(ctx context.Context) error
	Kill(ctx context.Context) error
	Schemas() json.RawMessage
}

// Verdicts of policy evaluation.
const (
	VerdictAllow = "allow"
	VerdictDeny  = "deny"
	VerdictAsk   = "ask"
)

// Decision is a policy verdict for one operation.
type Decision struct {
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// GrantID names the grant that allowed the operation; Once says it
	// must be consumed in the same transaction as the intent.
	GrantID string `json:"grant,omitempty"`
	Once    bool   `json:"once,omitempty"`
}

// Policy evaluates an operation before anything is dispatched.
type Policy interface {
	Evaluate(ctx context.Context, tool string, args json.RawMessage) (Decision, error)
}
