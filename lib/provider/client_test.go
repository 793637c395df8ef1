package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// serve starts a loopback server whose handler writes body as SSE lines.
func serveSSE(t *testing.T, lines ...string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, l := range lines {
			fmt.Fprintf(w, "%s\n\n", l)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func testClient(t *testing.T, url string, mod func(*Endpoint)) *Client {
	t.Helper()
	ep := Endpoint{BaseURL: url + "/v1", Sleep: func(context.Context, time.Duration) error { return nil }}
	if mod != nil {
		mod(&ep)
	}
	c, err := New(ep)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var hello = Request{Model: "m", Stream: true, Messages: []Message{{Role: RoleUser, Content: "hi"}}}

func TestStreamAssemblesContentAndFragmentedToolCall(t *testing.T) {
	srv, _ := serveSSE(t,
		`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Let me "}}]}`,
		`data: {"choices":[{"index":0,"delta":{"content":"look."}}]}`,
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"exec","arguments":""}}]}}]}`,
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"cmd\":"}}]}}]}`,
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"cargo test\"}"}}]}}]}`,
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		`data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":7}}`,
		`data: [DONE]`)
	var live []Delta
	resp, err := testClient(t, srv.URL, nil).Chat(context.Background(), hello, func(d Delta) { live = append(live, d) })
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Let me look." || resp.FinishReason != "tool_calls" {
		t.Fatalf("content %q finish %q", resp.Content, resp.FinishReason)
	}
	if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "call_a" || resp.ToolCalls[0].Name != "exec" ||
		string(resp.ToolCalls[0].Arguments) != `{"cmd":"cargo test"}` {
		t.Fatalf("tool calls %+v", resp.ToolCalls)
	}
	if resp.Usage.Source != UsageReported || *resp.Usage.Input != 12 || *resp.Usage.Output != 7 {
		t.Fatalf("usage %+v", resp.Usage)
	}
	if resp.Estimate.Source != UsageEstimated || resp.Estimate.Input == nil || *resp.Estimate.Input <= 0 {
		t.Fatalf("estimate %+v", resp.Estimate)
	}
	if len(resp.Attempts) != 1 || resp.Attempts[0].Status != 200 || !resp.Attempts[0].Output {
		t.Fatalf("attempts %+v", resp.Attempts)
	}
	if len(live) != 5 || live[0].Kind != DeltaContent || live[2].Kind != DeltaToolCall || live[2].ToolName != "exec" {
		t.Fatalf("live deltas %+v", live)
	}
}

func TestNonStreamingAnswer(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewDecoder(r.Body).Decode(&got)
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(401)
			return
		}
		io.WriteString(w, `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"done","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]},"finish_reason":"tool_calls"}]}`)
	}))
	defer srv.Close()
	req := hello
	req.Stream = false
	req.Tools = []Tool{{Name: "read", Parameters: json.RawMessage(`{"type":"object"}`)}}
	resp, err := testClient(t, srv.URL, func(e *Endpoint) { e.APIKey = "sk-test" }).Chat(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "done" || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "read" {
		t.Fatalf("response %+v", resp)
	}
	if resp.Usage.Source != UsageUnknown || resp.Usage.Input != nil {
		t.Fatalf("absent usage must be unknown, got %+v", resp.Usage)
	}
	if got["stream"] != false || got["tools"] == nil {
		t.Fatalf("request body %v", got)
	}
}

func TestRateLimitIsOneRequestAndNeverRetried(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(429)
		io.WriteString(w, `{"error":{"message":"slow down"}}`)
	}))
	defer srv.Close()
	slept := 0
	c := testClient(t, srv.URL, func(e *Endpoint) {
		e.Retries = 3
		e.Sleep = func(context.Context, time.Duration) error { slept++; return nil }
	})
	_, err := c.Chat(context.Background(), hello, nil)
	if ClassOf(err) != ClassRateLimited || core.ExitForError(err) != core.ExitProviderError {
		t.Fatalf("err %v class %q", err, ClassOf(err))
	}
	if hits.Load() != 1 || slept != 0 || len(AttemptsOf(err)) != 1 || StatusOf(err) != 429 {
		t.Fatalf("hits %d slept %d attempts %v", hits.Load(), slept, AttemptsOf(err))
	}
	if !strings.Contains(err.Error(), "slow down") {
		t.Fatalf("message %q", err.Error())
	}
}

func TestSecretNeverFormats(t *testing.T) {
	ep := Endpoint{BaseURL: "http://x/v1", APIKey: "sk-very-secret"}
	for _, s := range []string{fmt.Sprint(ep), fmt.Sprintf("%+v", ep), fmt.Sprintf("%#v", ep)} {
		if strings.Contains(s, "sk-very-secret") {
			t.Fatalf("secret leaked: %s", s)
		}
	}
	b, err := json.Marshal(ep)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-very-secret") {
		t.Fatalf("secret leaked in JSON: %s", b)
	}
}
