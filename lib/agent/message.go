package agent

import "encoding/json"

// Roles of conversation messages, as the OpenAI-compatible protocol names
// them.
const (
	roleSystem    = "system"
	roleUser      = "user"
	roleAssistant = "assistant"
	roleTool      = "tool"
)

// message is one entry of the model-visible history.
type message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Section names the prompt-receipt section a runtime-built message came
	// from ("" for model and tool messages).
	Section string `json:"-"`
}

// toolCall is one complete tool call assembled from a model response.
type toolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}
