package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// The result record's rule (issue 13 item 7): "error" is present exactly
// when the status is not completed, and its code is the status. Each case
// is a real run against the simulator ending a different way.
func TestResultErrorPresentExactlyWhenNotCompleted(t *testing.T) {
	say := `{"version":1,"name":"say","models":["sim"],"steps":[
 {"id":"done","times":5,"match":{"messages":2},"respond":{"text":"done"}},
 {"id":"again","times":5,"match":{"last_user":"."},"respond":{"text":"done"}}]}`
	loop := `{"version":1,"name":"loop","models":["sim"],"steps":[
 {"id":"look","times":20,"match":{"last_user":"."},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}]}},
 {"id":"again","times":20,"match":{"tool_result":{"tool":"view"}},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}]}}]}`
	ask := `{"version":1,"name":"ask","models":["sim"],"steps":[
 {"id":"run","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"exec","arguments":{"argv":["touch","x"]}}]}}]}`
	cases := []struct {
		name, scenario, status string
		start                  taskStart
		turns                  int
	}{
		{"completed", say, "completed", taskStart{Request: "say", Verify: "true"}, 0},
		{"verification failed", say, "failed", taskStart{Request: "say", Verify: "false"}, 0},
		{"turn budget", loop, "budget_exhausted", taskStart{Request: "loop", NoVerify: true}, 2},
		{"approval needed", ask, "permission_required", taskStart{Request: "run", NoVerify: true}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, map[string]string{"a.txt": "x\n"}, c.scenario)
			if c.turns > 0 {
				h.runner.Budgets.MaxTurns = c.turns
			}
			res := h.runner.Run(context.Background(), c.start)
			if res.Status != c.status {
				t.Fatalf("status %s, want %s: %+v", res.Status, c.status, res)
			}
			out, _ := json.Marshal(res)
			has := strings.Contains(string(out), `"error":`)
			if c.status == "completed" {
				if has {
					t.Fatalf("a completed result carries an error: %s", out)
				}
				return
			}
			if !has || res.Error == nil {
				t.Fatalf("a %s result has no error: %s", c.status, out)
			}
			if res.Error.Code != core.Code(c.status) || res.Error.Message == "" {
				t.Fatalf("error %+v does not say the %s status", res.Error, c.status)
			}
		})
	}
}
