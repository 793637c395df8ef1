package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/policy"
)

// Reads of the whole workspace go through policy like any other read (no
// bypass in the gate); writing the root as a whole stays refused.
func TestPolicyGateRootReadsAndWrites(t *testing.T) {
	gate := &policyGate{P: policy.Default()}
	gate.setYolo(true)
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

// Arguments that do not decode never yield an allowed operation: not with
// every mode set to allow, not with a grant that matches what did decode,
// not under YOLO. Policy denies them itself (invalid_operation).
func TestPolicyGateDeniesUndecodableArguments(t *testing.T) {
	permissive := policy.Policy{Shell: policy.ModeAllow, ToolNetwork: policy.ModeAllow,
		GitCommit: policy.ModeAllow, GitPush: policy.ModeAllow, Destructive: policy.ModeAllow}
	cases := []struct{ tool, args, problem string }{
		{"shell", `{"script":"touch pwned","cwd":7}`, "cwd: expected a string, found a JSON number"},
		{"exec", `{"argv":["touch","pwned"],"env":{"A":1}}`, "env: expected a string, found a JSON number"},
		{"exec", `{"argv":"touch pwned"}`, "argv: expected an array of strings, found a JSON string"},
		{"write", `{"path":"a.txt","content":"x","expect_version":5}`, "expect_version: expected a string"},
		{"view", `{"path":["a.txt"]}`, "path: expected a string, found a JSON array"},
		{"ls", `{"path":{}}`, "path: expected a string, found a JSON object"},
		{"git_status", `{"path":3}`, "path: expected a string"},
		{"git_commit", `{"argv":"x"}`, "argv: expected an array of strings"},
		{"git_push", `{"remote":1}`, "remote: expected a string"},
		{"ls", `[]`, "expected a JSON object of arguments, found a JSON array"},
		{"edit", `{"path":"a.txt"} {"path":".git/config"}`, "the arguments are not valid JSON"},
	}
	for _, c := range cases {
		op := OperationFor(c.tool, json.RawMessage(c.args))
		gate := &policyGate{P: permissive}
		gate.setGrants([]policy.Grant{{ID: "g1", Scope: "task", Spec: policy.SpecFor(op), Source: "user"}})
		gate.setYolo(true)
		d, err := gate.Evaluate(context.Background(), c.tool, json.RawMessage(c.args))
		if err != nil || d.Verdict != verdictDeny || d.Reason != string(policy.ReasonInvalid) || d.GrantID != "" {
			t.Errorf("%s %s: %+v %v, want deny/invalid_operation", c.tool, c.args, d, err)
		}
		if !strings.Contains(d.Rule, "cannot be decoded: "+c.problem) {
			t.Errorf("%s %s: rule %q does not say %q", c.tool, c.args, d.Rule, c.problem)
		}
	}
	// No arguments at all read as {}, as the provider reads them.
	if op := OperationFor("git_status", nil); op.Undecodable != "" {
		t.Errorf("empty arguments marked undecodable: %+v", op)
	}
}

// In a run under YOLO, a call whose arguments do not decode is denied
// before dispatch: no intent is journaled and the tool never runs.
func TestUndecodableToolCallNeverReachesDispatch(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "x\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"bad","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"shell","arguments":{"script":"touch pwned","cwd":7}}]}},
 {"id":"done","match":{"tool_result":{"tool":"shell"}},"respond":{"text":"done"}}]}`)
	h.runner.Policy.(*policyGate).setYolo(true)
	h.runner.Run(context.Background(), taskStart{Request: "x", Verify: "true"})
	// The verification command runs as its own exec; only the shell call
	// is looked at.
	denied := false
	for _, ev := range h.events {
		if !strings.Contains(string(ev.Data), `"tool":"shell"`) {
			continue
		}
		switch ev.Type {
		case core.EvOperationIntent, core.EvOperationDispatched, core.EvOperationResult:
			t.Fatalf("an undecodable call reached dispatch: %s %s", ev.Type, ev.Data)
		case core.EvOperationDecision:
			if !strings.Contains(string(ev.Data), `"decision":"deny"`) || !strings.Contains(string(ev.Data), "cannot be decoded") {
				t.Fatalf("decision %s", ev.Data)
			}
			denied = true
		}
	}
	if !denied {
		t.Fatal("no decision was journaled for the shell call")
	}
	if _, err := os.Stat(filepath.Join(h.root, "pwned")); err == nil {
		t.Fatal("the undecodable shell call ran")
	}
}
