package provider_test

import (
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/provider"
)

// A multi-turn exchange: the assistant's tool call and the tool result go
// back in the next request, and the simulator's tool_result match sees the
// called tool, its arguments and the result.
func TestMultiTurnToolExchange(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["m"],"steps":[
	 {"id":"call","match":{"messages":2,"tools":["exec"]},"respond":{"tool_calls":[{"id":"c1","name":"exec","arguments":{"cmd":"cargo test"}}]}},
	 {"id":"answer","match":{"messages":4,"tool_result":{"tool":"exec","arguments":"cargo test","content":"FAILED"}},"respond":{"text":"found it"}}]}`)
	c := client(t, s.BaseURL(), nil)
	req := chatReq(true)
	req.Tools = []provider.Tool{{Name: "exec", Description: "run a command", Parameters: []byte(`{"type":"object","properties":{"cmd":{"type":"string"}}}`)}}
	first, err := c.Chat(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, first.Message(), provider.ToolResult(first.ToolCalls[0].ID, "test adds ... FAILED"))
	second, err := c.Chat(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.Content != "found it" {
		t.Fatalf("second %+v", second)
	}
	mustVerify(t, s)
}
