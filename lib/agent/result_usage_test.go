package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// Invariant 12: unknown usage is shown as unknown, never as zero.
func TestTokenAccountKeepsUnknownUsageUnknown(t *testing.T) {
	est := int64(100)
	var a TokenAccount
	a.add(modelResponse{Estimate: usage{Input: &est}})
	out, _ := json.Marshal(a)
	if !strings.Contains(string(out), `"input":null`) || !strings.Contains(string(out), `"output":null`) ||
		!strings.Contains(string(out), `"requests_without_usage":1`) || !strings.Contains(string(out), `"estimated":100`) {
		t.Fatalf("unknown usage rendered as %s", out)
	}
	in, outTok := int64(7), int64(3)
	a.add(modelResponse{Usage: usage{Input: &in, Output: &outTok}})
	if a.Input == nil || *a.Input != 7 || *a.Output != 3 || a.Unknown != 1 || a.Requests != 2 {
		t.Fatalf("mixed usage summed wrong: %+v", a)
	}
}

// A request the server refused, or one cut off mid-answer, was still sent:
// the result counts it as a request without usage, never as no request.
// The tool call cut off mid-stream is incomplete: it never runs.
func TestFailedRequestsCountWithUnknownUsage(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "x\n"}, `{"version":1,"name":"cut","models":["sim"],"steps":[
 {"id":"cut","match":{"messages":2},"respond":{"tool_calls":[{"name":"view","arguments":{"path":"a.txt"}}],
  "fragment":{"size":4},"fault":"disconnect","fault_after":3}}]}`)
	res := h.runner.Run(context.Background(), taskStart{Request: "x", Verify: "true"})
	if res.Status != "provider_error" {
		t.Fatalf("status %s: %+v", res.Status, res)
	}
	u := res.Usage
	if u.Requests != 1 || u.Unknown != 1 || u.Input != nil || u.Output != nil || u.Estimated <= 0 {
		t.Fatalf("a cut-off request is accounted as %+v", u)
	}
	if n := h.count(core.EvOperationIntent); n != 0 || res.ToolCalls != 0 {
		t.Fatalf("an incomplete tool call ran: %d intents, %d tool calls", n, res.ToolCalls)
	}
}
