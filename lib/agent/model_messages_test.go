package agent

import (
	"encoding/json"
	"reflect"
	"testing"
)

func historyOf(n int) []message {
	msgs := []message{{Role: roleSystem, Content: "system"}, {Role: roleUser, Content: "task"}}
	for i := 0; len(msgs) < n; i++ {
		msgs = append(msgs, message{Role: roleAssistant, ToolCalls: []toolCall{{ID: "c", Name: "view", Args: json.RawMessage(`{"path":"a"}`)}}},
			message{Role: roleTool, ToolCallID: "c", Content: "file text"})
	}
	return msgs[:n]
}

// Each request converts only what the history gained since the last one,
// and what it sends is always exactly the whole history's conversion.
func TestProviderMessagesConvertOnlyWhatTheHistoryGained(t *testing.T) {
	p := &providerModel{}
	full := historyOf(400)
	for n := 2; n <= len(full); n += 2 {
		if got := p.messages(full[:n]); !reflect.DeepEqual(got, toProviderMessages(full[:n])) {
			t.Fatalf("history of %d converted wrongly", n)
		}
	}
	grown := append(append([]message(nil), full...), message{Role: roleAssistant, Content: "done"})
	p.messages(full)
	if allocs := testing.AllocsPerRun(50, func() { p.messages(full); p.messages(grown) }); allocs > 4 {
		t.Fatalf("%.0f allocations to convert a 401-message history grown by one; the prefix was converted again", allocs)
	}
}

// A history rewritten in the middle (compaction) or changed in place by
// the caller is converted again from the first difference, and the slice
// an earlier request got is left as it was.
func TestProviderMessagesFollowARewrittenHistory(t *testing.T) {
	p := &providerModel{}
	msgs := historyOf(20)
	first := p.messages(msgs)
	kept := append([]message(nil), msgs...)
	msgs[5] = message{Role: roleUser, Content: "summary of the earlier turns"}
	if got := p.messages(msgs); !reflect.DeepEqual(got, toProviderMessages(msgs)) {
		t.Fatal("a message changed in place was not converted again")
	}
	if !reflect.DeepEqual(first, toProviderMessages(kept)) {
		t.Fatal("the earlier request's messages were written over")
	}
	compacted := append([]message{msgs[0], {Role: roleUser, Content: "compacted"}}, msgs[15:]...)
	if got := p.messages(compacted); !reflect.DeepEqual(got, toProviderMessages(compacted)) {
		t.Fatal("a compacted history was converted wrongly")
	}
}
