package provider

import (
	"context"
	"encoding/json"
	"time"
)

// Secret holds a resolved credential. It formats as "[redacted]" in every
// fmt verb and in JSON, so an Endpoint can be logged or put into an error
// without leaking the key; Reveal is the one place the value is read.
type Secret string

// String hides the value.
func (Secret) String() string { return "[redacted]" }

// GoString hides the value from %#v.
func (Secret) GoString() string { return `provider.Secret("[redacted]")` }

// MarshalJSON hides the value from encoders.
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"[redacted]"`), nil }

// Reveal returns the credential for the Authorization header.
func (s Secret) Reveal() string { return string(s) }

// Endpoint is everything the client needs to talk to one server. It is
// built by the caller from the user's configuration: the client reads no
// environment variable and uses no proxy.
type Endpoint struct {
	// BaseURL is the API root including "/v1", e.g. http://127.0.0.1:8080/v1
	// or, through llama-swap, http://host:8080/upstream/laya/v1.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer …" when non-empty.
	APIKey Secret
	// ResolveKey, when set, is called at dispatch of every attempt and
	// overrides APIKey, so that a credential reference is resolved as late
	// as possible. An error fails the call as authentication.
	ResolveKey func() (Secret, error) `json:"-"`
	// BeforeRetry, when set, is called before each retry's backoff with the
	// number of the coming attempt; the runtime re-enters admission control
	// there. An error stops retrying and is returned as the call's error.
	BeforeRetry func(ctx context.Context, next int) error `json:"-"`
	// Headers are extra request headers (never logged).
	Headers map[string]string
	// Timeouts bound each phase of a request; zero fields take defaults.
	Timeouts Timeouts
	// Retries is the number of extra attempts after a transient failure
	// (provider_retries). Zero means no retry.
	Retries int
	// Backoff lists the waits before each retry; nil means 1 s then 2 s
	// (the last value repeats).
	Backoff []time.Duration
	// Sleep waits between retries; nil sleeps for real. Tests inject a
	// recorder so that they never sleep.
	Sleep func(ctx context.Context, d time.Duration) error `json:"-"`
	// Limits bound what one response may make the client buffer.
	Limits Limits
}

// Timeouts bound the phases of one request. Each expiry is a typed error
// naming its phase. All of them are further bounded by the caller's context.
type Timeouts struct {
	// Header: from sending the request to receiving response headers.
	Header time.Duration
	// FirstOutput: from sending the request to the first meaningful output
	// (a content, reasoning or tool-call delta; keep-alives do not count).
	FirstOutput time.Duration
	// Idle: once output has begun, the longest gap between data events
	// (keep-alive comments do not count); without streaming, the longest
	// gap between body bytes.
	Idle time.Duration
	// Total: the whole Chat call, retries and backoff included.
	Total time.Duration
}

// Default timeouts, used for zero fields.
const (
	DefaultHeaderTimeout      = 60 * time.Second
	DefaultFirstOutputTimeout = 120 * time.Second
	DefaultIdleTimeout        = 60 * time.Second
	DefaultTotalTimeout       = 10 * time.Minute
)

// Limits bound the client's buffers; exceeding one is a protocol error.
type Limits struct {
	MaxLineBytes      int // one SSE line / non-streamed body (default 4 MiB)
	MaxContentBytes   int // assembled content and reasoning, each (default 4 MiB)
	MaxArgumentsBytes int // one tool call's arguments (default 1 MiB)
	MaxToolCalls      int // tool calls in one response (default 64)
}

// Role is a chat message role.
type Role string

// Message roles of the Chat Completions protocol.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one chat message. Assistant messages may carry ToolCalls;
// tool messages answer one call through ToolCallID.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// Tool is a function the model may call. Parameters is a JSON Schema.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// ToolCall is a complete tool call: Arguments is always valid JSON (an
// object). The client never returns fragments.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Request is one chat completion request.
type Request struct {
	Model     string
	Messages  []Message
	Tools     []Tool
	MaxTokens int // 0 leaves it to the server
	// Temperature is sent when non-nil.
	Temperature *float64
	// Stream asks for SSE streaming with stream_options.include_usage.
	Stream bool
}

// DeltaKind says what a live Delta carries.
type DeltaKind string

// Live delta kinds.
const (
	DeltaContent   DeltaKind = "content"
	DeltaReasoning DeltaKind = "reasoning"
	DeltaToolCall  DeltaKind = "tool_call"
	// DeltaRestart means the attempt that produced the previous deltas
	// failed and was discarded; a retry starts from nothing.
	DeltaRestart DeltaKind = "restart"
)

// Delta is live, non-durable progress from a streamed response. It never
// claims an outcome: tool-call deltas are for display only.
type Delta struct {
	Kind DeltaKind
	// Text is content, reasoning, or an arguments fragment.
	Text string
	// ToolIndex and ToolName identify the call a tool-call delta belongs to.
	ToolIndex int
	ToolName  string
	// Attempt is the 1-based physical attempt the delta came from.
	Attempt int
}

// Usage sources.
const (
	UsageReported  = "reported"
	UsageEstimated = "estimated"
	UsageUnknown   = "unknown"
)

// Usage is token usage. Nil counts are unknown, never zero.
type Usage struct {
	Input  *int64 `json:"input"`
	Output *int64 `json:"output"`
	Source string `json:"source"`
}

// Attempt records one physical HTTP attempt of a call.
type Attempt struct {
	N        int           `json:"n"`
	Status   int           `json:"status,omitempty"` // HTTP status, 0 if none arrived
	Class    Class         `json:"class,omitempty"`  // empty on success
	Message  string        `json:"message,omitempty"`
	Output   bool          `json:"output"` // meaningful output arrived before the end
	Duration time.Duration `json:"duration_ns"`
	Backoff  time.Duration `json:"backoff_ns,omitempty"` // wait before this attempt
}

// Response is a complete chat completion.
type Response struct {
	Model        string
	Content      string
	Reasoning    string
	ToolCalls    []ToolCall
	FinishReason string
	// Usage is what the server reported, or Source "unknown" with nil counts.
	Usage Usage
	// Estimate is the local estimate (Source "estimated"), always present,
	// kept apart from Usage; see EstimateTokens.
	Estimate Usage
	Attempts []Attempt
}
