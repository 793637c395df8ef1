package provider

import (
	"encoding/json"
	"testing"
)

func assemble(t *testing.T, chunks ...string) (*Response, error) {
	t.Helper()
	a := newAssembler(Limits{}.withDefaults(), 1)
	for _, c := range chunks {
		var ch wireChunk
		if err := json.Unmarshal([]byte(c), &ch); err != nil {
			t.Fatalf("bad test chunk %s: %v", c, err)
		}
		if err := a.add(&ch, nil); err != nil {
			return nil, err
		}
	}
	return a.response(&hello)
}

func TestNoIndexNoIDWholeCallsStaySeparate(t *testing.T) {
	resp, err := assemble(t,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"exec","arguments":"{\"cmd\":\"ls\"}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0].ID != "call_0" || resp.ToolCalls[1].Name != "read" {
		t.Fatalf("calls %+v", resp.ToolCalls)
	}
}

func TestArgumentsAsObjectAndEmptyArguments(t *testing.T) {
	resp, err := assemble(t,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"exec","arguments":{"cmd":"ls"}}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"status"}}]}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.ToolCalls[0].Arguments) != `{"cmd":"ls"}` || string(resp.ToolCalls[1].Arguments) != `{}` {
		t.Fatalf("calls %+v", resp.ToolCalls)
	}
}

func TestIncompleteOrNamelessCallsAreNeverReturned(t *testing.T) {
	for _, chunk := range []string{
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"exec","arguments":"{\"cmd\":"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"arguments":"{}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"exec","arguments":"\"ls\""}}]}}]}`,
	} {
		resp, err := assemble(t, chunk)
		if resp != nil || ClassOf(err) != ClassProtocol {
			t.Fatalf("%s: resp %+v err %v", chunk, resp, err)
		}
	}
}

func TestOtherChoicesAndUnknownFieldsIgnored(t *testing.T) {
	resp, err := assemble(t,
		`{"choices":[{"index":1,"delta":{"content":"not ours"}},{"index":0,"delta":{"content":"ours","future_field":{"x":1}}}],"novel":true}`)
	if err != nil || resp.Content != "ours" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestTooManyToolCalls(t *testing.T) {
	a := newAssembler(Limits{MaxToolCalls: 1}.withDefaults(), 1)
	var ch wireChunk
	json.Unmarshal([]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"{}"}},{"index":1,"id":"b","function":{"name":"y","arguments":"{}"}}]}}]}`), &ch)
	if err := a.add(&ch, nil); ClassOf(err) != ClassProtocol {
		t.Fatalf("err %v", err)
	}
}
