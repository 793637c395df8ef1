package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// A session's requests, encoded through the cache, are byte for byte the
// bodies encodeRequest builds, while the history grows, when it is
// rewritten (compaction), when the tools change or go away; and a turn
// that only appends encodes only the appended messages.
func TestBodyCacheEncodesOnlyNewMessagesAndMatchesTheFullEncoding(t *testing.T) {
	temp := 0.5
	tools := []Tool{{Name: "view", Description: "a < b", Parameters: json.RawMessage(`{"type":"object"}`)}}
	hist := []Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "fix it & test"}}
	var c bodyCache
	check := func(step string, r Request, fresh int) {
		t.Helper()
		want, err := encodeRequest(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: cached body differs:\n got %s\nwant %s", step, got, want)
		}
		if c.fresh != fresh {
			t.Errorf("%s: encoded %d messages, want %d", step, c.fresh, fresh)
		}
	}
	check("first", Request{Model: "m", Messages: hist, Tools: tools, Stream: true, MaxTokens: 10}, 2)
	for turn := 1; turn <= 3; turn++ {
		// The caller builds fresh slices each turn, as the agent does.
		next := append([]Message{}, hist...)
		next = append(next, Message{Role: "assistant", ToolCalls: []ToolCall{{ID: fmt.Sprint("c", turn), Name: "view", Arguments: json.RawMessage(`{"path":"a.go"}`)}}},
			Message{Role: "tool", ToolCallID: fmt.Sprint("c", turn), Content: `{"ok":true,"content":"x := a > b"}`})
		hist = next
		check(fmt.Sprint("turn ", turn), Request{Model: "m", Messages: hist, Tools: tools, Stream: true, MaxTokens: 10}, 2)
	}
	// Arguments changed in place after a send are seen (the cache keeps
	// its own copy).
	hist[2].ToolCalls[0].Arguments[2] = 'P'
	check("mutated arguments", Request{Model: "m", Messages: hist, Tools: tools, Stream: true, MaxTokens: 10}, len(hist)-2)
	compacted := append([]Message{hist[0], hist[1], {Role: "user", Content: "summary"}}, hist[len(hist)-2:]...)
	check("compacted", Request{Model: "m", Messages: compacted, Tools: tools, Stream: true}, 3)
	check("other tools", Request{Model: `m"messages":null`, Messages: compacted, Tools: tools[:0], Temperature: &temp}, 0)
	check("tools back", Request{Model: "m", Messages: compacted, Tools: tools}, 0)
}
