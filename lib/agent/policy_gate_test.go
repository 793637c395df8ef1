package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/josecorral/fluzo/lib/policy"
)

// Reads of the whole workspace go through policy like any other read (no
// bypass in the gate); writing the root as a whole stays refused.
func TestPolicyGateRootReadsAndWrites(t *testing.T) {
	gate := &PolicyGate{P: policy.Default()}
	gate.SetYolo(true)
	cases := []struct {
		tool, args, verdict, reason string
	}{
		{"ls", `{}`, verdictAllow, string(policy.ReasonPolicyAllow)},
		{"ls", `{"path":"./"}`, verdictAllow, string(policy.ReasonPolicyAllow)},
		{"grep", `{"pattern":"x","path":"src/.."}`, verdictAllow, string(policy.ReasonPolicyAllow)},
		{"git_status", `{}`, verdictAllow, string(policy.ReasonPolicyAllow)},
		{"glob", `{"pattern":"*","path":".."}`, verdictDeny, string(policy.ReasonOutsideWorkspace)},
		{"write", `{"path":".","content":"x","expect_version":"absent"}`, verdictDeny, string(policy.ReasonProtectedPath)},
	}
	for _, c := range cases {
		d, err := gate.Evaluate(context.Background(), c.tool, json.RawMessage(c.args))
		if err != nil || d.Verdict != c.verdict || d.Reason != c.reason || d.Rule == "" {
			t.Errorf("%s %s: %+v %v, want %s/%s", c.tool, c.args, d, err, c.verdict, c.reason)
		}
	}
}
