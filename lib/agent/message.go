package agent

import "encoding/json"

// Roles of conversation messages, as the OpenAI-compatible protocol names
// them.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one entry of the model-visible history.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Section names the prompt-receipt section a runtime-built message came
	// from ("" for model and tool messages).
	Section string `json:"-"`
}

// ToolCall is one complete tool call assembled from a model response.
type ToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}
