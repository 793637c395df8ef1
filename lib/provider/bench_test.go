package provider

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// benchStream builds a stream like a busy model's: content deltas, then a
// tool call with fragmented arguments, usage and [DONE].
func benchStream(chunks int) []byte {
	var b bytes.Buffer
	for i := range chunks / 2 {
		fmt.Fprintf(&b, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"token %d and some text "},"finish_reason":null}]}`+"\n\n", i)
	}
	fmt.Fprintf(&b, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"write","arguments":"{\"text\":\""}}]}}]}`+"\n\n")
	for range chunks/2 - 2 {
		fmt.Fprintf(&b, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"abcdefgh"}}]},"finish_reason":null}]}`+"\n\n")
	}
	fmt.Fprintf(&b, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":2}}`+"\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkSSEParse measures the client's stream parsing and assembly:
// MB/s through SetBytes, and allocations per chunk as a custom metric.
// scripts/bench.d/provider runs it.
func BenchmarkSSEParse(b *testing.B) {
	const chunks = 2000
	stream := benchStream(chunks)
	c, err := New(Endpoint{BaseURL: "http://127.0.0.1:1/v1"})
	if err != nil {
		b.Fatal(err)
	}
	long := Timeouts{Header: time.Hour, FirstOutput: time.Hour, Idle: time.Hour, Total: time.Hour}
	b.SetBytes(int64(len(stream)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for range b.N {
		_, w := startPhases(context.Background(), long, true)
		w.headers()
		asm := newAssembler(c.ep.Limits, 1)
		if err := c.readStream(bytes.NewReader(stream), asm, w, nil); err != nil {
			b.Fatal(err)
		}
		resp, err := asm.response(&hello)
		w.stop()
		if err != nil || len(resp.ToolCalls) != 1 || !strings.HasPrefix(resp.Content, "token 0") {
			b.Fatalf("bad parse: %v", err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N*chunks), "allocs/chunk")
}
