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
	purposeTurn       = "turn"
	purposeCompaction = "compaction"
	purposeFinalize   = "finalize"
)

// modelRequest is one request to the generative model.
type modelRequest struct {
	Purpose  string
	Messages []message
	// Tools is nil for text-only requests (finalization, compaction).
	Tools     json.RawMessage
	MaxTokens int
}

// usage is token usage; nil counts are unknown, never zero.
type usage struct {
	Input  *int64 `json:"input"`
	Output *int64 `json:"output"`
	Source string `json:"source"`
}

// modelResponse is a complete response: only complete tool calls.
type modelResponse struct {
	Model        string
	Content      string
	ToolCalls    []toolCall
	FinishReason string
	Usage        usage
	Estimate     usage
}

// liveDelta is non-durable streaming progress, for display only.
type liveDelta struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// model sends one request. Errors are typed (provider_error, cancelled).
type model interface {
	Complete(ctx context.Context, req modelRequest, live func(liveDelta)) (modelResponse, error)
}

// toolOutcome is the answer of the execution backend to one call.
type toolOutcome struct {
	OK bool `json:"ok"`
	// Unknown: the backend vanished after the call may have reached it,
	// so whether it took effect is not known (recorded "unknown").
	Unknown bool            `json:"unknown,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *core.Error     `json:"error,omitempty"`
}

// Tools is the execution backend (a fluzo-tool serve child).
type Tools interface {
	Call(ctx context.Context, tool string, args json.RawMessage) (toolOutcome, error)
	// Cancel asks the backend to end the call's owned processes
	// gracefully; Kill force-stops them.
	Cancel(ctx context.Context) error
	Kill(ctx context.Context) error
	Schemas() json.RawMessage
	// Query asks the backend a read-only question about the workspace
	// (tools.QueryNames): every workspace read of the runtime goes
	// through it, so a remote backend describes its own tree.
	Query(ctx context.Context, name string, args, out any) error
}

// Verdicts of policy evaluation.
const (
	verdictAllow = "allow"
	verdictDeny  = "deny"
	verdictAsk   = "ask"
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

// slot is an admitted request's hold on model and pool capacity
// (admit.Slot): reserved → dispatched → completed or uncertain.
type slot interface {
	Dispatched() error
	Complete() error
	Uncertain() error
	CancelBeforeDispatch() error
}
