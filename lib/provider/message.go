package provider

// Message returns the assistant message that records r in the
// conversation: its content and its complete tool calls.
func (r *Response) Message() Message {
	return Message{Role: RoleAssistant, Content: r.Content, ToolCalls: append([]ToolCall(nil), r.ToolCalls...)}
}

// ToolResult is the tool message answering the call with id callID.
func ToolResult(callID, content string) Message {
	return Message{Role: RoleTool, ToolCallID: callID, Content: content}
}
