package agent

import (
	"encoding/json"
	"strings"
	"testing"
)

// Invariant 12: unknown usage is shown as unknown, never as zero.
func TestTokenAccountKeepsUnknownUsageUnknown(t *testing.T) {
	est := int64(100)
	var a TokenAccount
	a.add(ModelResponse{Estimate: Usage{Input: &est}})
	out, _ := json.Marshal(a)
	if !strings.Contains(string(out), `"input":null`) || !strings.Contains(string(out), `"output":null`) ||
		!strings.Contains(string(out), `"requests_without_usage":1`) || !strings.Contains(string(out), `"estimated":100`) {
		t.Fatalf("unknown usage rendered as %s", out)
	}
	in, outTok := int64(7), int64(3)
	a.add(ModelResponse{Usage: Usage{Input: &in, Output: &outTok}})
	if a.Input == nil || *a.Input != 7 || *a.Output != 3 || a.Unknown != 1 || a.Requests != 2 {
		t.Fatalf("mixed usage summed wrong: %+v", a)
	}
}
