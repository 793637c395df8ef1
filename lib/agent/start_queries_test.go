package agent

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
)

// countingTools counts the backend queries a run asks, by name.
type countingTools struct {
	Tools
	mu      sync.Mutex
	queries map[string]int
}

func (c *countingTools) Query(ctx context.Context, name string, args, out any) error {
	c.mu.Lock()
	c.queries[name]++
	c.mu.Unlock()
	return c.Tools.Query(ctx, name, args, out)
}

// A task's start reads the backend's git state once: the context's git
// status section and the workspace.state event come from the same answer
// (each git_state costs the backend three git processes, on the path to
// the first model request).
func TestTaskStartAsksTheGitStateOnce(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "a\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"done","match":{"messages":2},"respond":{"text":"done"}}]}`)
	ct := &countingTools{Tools: h.runner.Tools, queries: map[string]int{}}
	h.runner.Tools = ct
	res := h.runner.Run(context.Background(), taskStart{Request: "look", NoVerify: true})
	if res.Status != "completed" {
		t.Fatalf("result: %+v", res)
	}
	if n := ct.queries[tools.QueryGitState]; n != 1 {
		t.Fatalf("git_state asked %d times at the start of one task, want 1 (queries: %v)", n, ct.queries)
	}
	head, err := exec.Command("git", "-C", h.root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var got []core.Event
	for _, ev := range h.events {
		if ev.Type == core.EvWorkspaceState {
			got = append(got, ev)
		}
	}
	if len(got) != 1 || !strings.Contains(string(got[0].Data), strings.TrimSpace(string(head))) {
		t.Fatalf("workspace.state events %v, want one naming HEAD %s", got, head)
	}
}
