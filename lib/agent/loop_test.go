package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/policy"
	"github.com/josecorral/fluzo/lib/provider"
	"github.com/josecorral/fluzo/lib/sim"
	"github.com/josecorral/fluzo/lib/tools"
)

// harness wires a Runner to real parts: the store, an in-process
// fluzo-tool server, policy, the provider client and the simulator
// standing in for the model.
type harness struct {
	root   string
	runner *Runner
	mu     sync.Mutex
	events []core.Event
}

func newHarness(t *testing.T, files map[string]string, scenario string, grants ...string) *harness {
	return newHarnessB(t, files, scenario, grants...)
}

func newHarnessB(t testing.TB, files map[string]string, scenario string, grants ...string) *harness {
	t.Helper()
	ctx := context.Background()
	st, root := openStore(t, files)
	sc, err := sim.Parse("test", []byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sim.Start(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, err := provider.New(provider.Endpoint{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	tc, err := tools.NewLocal(ctx, tools.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tc.Close() })
	schemas, _ := json.Marshal(tools.Schemas())
	gate := &policyGate{P: policy.Default()}
	var gs []policy.Grant
	for _, g := range grants {
		spec, err := policy.ParseSpec(g)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, policy.Grant{ID: core.NewID(core.KindGrant), Scope: core.GrantTask, Spec: spec, Source: "cli"})
	}
	gate.setGrants(gs)
	h := &harness{root: root}
	h.runner = &Runner{
		Model: &providerModel{Client: client, Name: "sim"}, ModelName: "sim",
		Tools:   &toolClient{C: tc, schemas: schemas},
		Policy:  gate,
		Journal: &storeJournal{S: st, Emit: func(ev core.Event) { h.mu.Lock(); h.events = append(h.events, ev); h.mu.Unlock() }},
		Root:    root,
		Budgets: budgets{MaxTurns: 10},
	}
	return h
}

func (h *harness) count(typ string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, ev := range h.events {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

func version(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestLoopCompletesOnlyWhenVerificationPassesAfterTheLastEdit(t *testing.T) {
	scenario := fmt.Sprintf(`{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"view","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}]}},
 {"id":"edit","match":{"tool_result":{"tool":"view"}},"respond":{"tool_calls":[{"id":"c2","name":"edit","arguments":{"path":"a.txt","old_string":"hello","new_string":"world","expect_version":%q}}]}},
 {"id":"done","match":{"tool_result":{"tool":"edit"}},"respond":{"text":"done"}}]}`, version("hello\n"))
	h := newHarness(t, map[string]string{"a.txt": "hello\n"}, scenario)
	res := h.runner.Run(context.Background(), taskStart{Request: "say world", Verify: "grep -q world a.txt"})
	if res.Status != "completed" || !res.Verification.Completed || res.Verification.Evidence.EditSeq != 1 {
		t.Fatalf("result: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "a.txt")); string(b) != "world\n" {
		t.Fatalf("a.txt = %q", b)
	}
	if h.count(core.EvOperationIntent) != 3 || h.count(core.EvOperationResult) != 3 {
		t.Fatalf("intents %d results %d", h.count(core.EvOperationIntent), h.count(core.EvOperationResult))
	}

	// The same model claims success without fixing anything: failed.
	h2 := newHarness(t, map[string]string{"a.txt": "hello\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"claim","match":{"messages":2},"respond":{"text":"All fixed!"}}]}`)
	h2.runner.VerificationAttempts = 1 // no feedback round: agent_verify_feedback covers it
	res = h2.runner.Run(context.Background(), taskStart{Request: "say world", Verify: "grep -q world a.txt"})
	if res.Status != "failed" || res.Verification.Verification != VerifyFailed || res.ExitCode() != 1 {
		t.Fatalf("a claim without evidence completed: %+v", res)
	}
}

func TestLoopRecordsRepeatedEditTestFailCycles(t *testing.T) {
	var steps []string
	content := "v0\n"
	steps = append(steps, `{"id":"s0","match":{"messages":2},"respond":{"tool_calls":[{"id":"e0","name":"write","arguments":{"path":"a.txt","content":"v1\n","expect_version":"`+version(content)+`"}}]}}`)
	for i := 1; i <= 3; i++ {
		steps = append(steps, fmt.Sprintf(`{"id":"t%d","match":{"tool_result":{"tool":"write"}},"respond":{"tool_calls":[{"id":"x%d","name":"exec","arguments":{"argv":["false"]}}]}}`, i, i))
		next := fmt.Sprintf("v%d\n", i+1)
		steps = append(steps, fmt.Sprintf(`{"id":"w%d","match":{"tool_result":{"tool":"exec"}},"respond":{"tool_calls":[{"id":"e%d","name":"write","arguments":{"path":"a.txt","content":%q,"expect_version":%q}}]}}`, i, i, next, version(fmt.Sprintf("v%d\n", i))))
	}
	steps = append(steps, `{"id":"end","match":{"tool_result":{"tool":"write"}},"respond":{"text":"giving up"}}`)
	scenario := `{"version":1,"name":"loop","models":["sim"],"steps":[` + strings.Join(steps, ",") + `]}`
	h := newHarness(t, map[string]string{"a.txt": content}, scenario, "exec:false")
	var seen []string
	var mu sync.Mutex
	h.runner.Observe = func(point string, data any) { mu.Lock(); seen = append(seen, point); mu.Unlock() }
	res := h.runner.Run(context.Background(), taskStart{Request: "loop", NoVerify: true})
	if len(res.Loops) != 1 || res.Loops[0].Cycles != 3 || h.count("loop.detected") != 1 {
		t.Fatalf("loops %+v, events %d", res.Loops, h.count("loop.detected"))
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(seen, ","), "loop_detected") {
		t.Fatalf("the loop was not offered as a decision point: %v", seen)
	}
}

func TestToolOutputIsBoundedWithAMarkerAndArtifact(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 400)
	h := newHarness(t, map[string]string{"big.txt": big}, `{"version":1,"name":"b","models":["sim"],"steps":[
 {"id":"view","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"big.txt"}}]}},
 {"id":"done","match":{"tool_result":{"tool":"view","content":"\\[truncated: 1024 of [0-9]+ bytes shown; full output in artifact [0-9a-f]{64}\\]"}},"respond":{"text":"ok"}}]}`)
	h.runner.ToolContextMaxBytes = 1024
	res := h.runner.Run(context.Background(), taskStart{Request: "read", NoVerify: true})
	if res.Status != "completed" {
		t.Fatalf("the bounded result did not reach the model with its marker: %+v", res)
	}
}
