package provider

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The request body carries code as written: a tool result, a tool call's
// arguments and a tool schema keep "<", ">" and "&".
func TestEncodeRequestKeepsCodeCharactersVerbatim(t *testing.T) {
	code := "if i < n && ok { x := a > b }"
	body, err := encodeRequest(Request{Model: "m",
		Messages: []Message{
			{Role: "assistant", ToolCalls: []ToolCall{{ID: "c1", Name: "edit", Arguments: json.RawMessage(`{"old_string":"a<b"}`)}}},
			{Role: "tool", ToolCallID: "c1", Content: `{"ok":true,"result":{"content":"` + code + `"}}`},
		},
		Tools: []Tool{{Name: "view", Description: "lines <= 10 && more", Parameters: json.RawMessage(`{"type":"object","description":"a > b"}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{code, `a<b`, "lines <= 10 && more", `"description":"a > b"`} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("request body lacks %q verbatim:\n%s", want, body)
		}
	}
	if bytes.Contains(body, []byte(`\u003c`)) || bytes.Contains(body, []byte(`\u0026`)) || bytes.Contains(body, []byte(`\u003e`)) {
		t.Errorf("request body has HTML escapes:\n%s", body)
	}
}
