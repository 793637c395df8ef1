package agent

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkLoop200Turns runs a 200-turn scripted session with real parts
// (store, in-process fluzo-tool, policy, provider, simulator); profile it
// with -cpuprofile to see the runtime's own cost per turn.
func BenchmarkLoop200Turns(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		steps := []string{`{"id":"first","match":{"messages":2},"respond":{"tool_calls":[{"id":"c0","name":"view","arguments":{"path":"a.txt"}}]}}`,
			`{"id":"turns","times":198,"match":{"tool_result":{"tool":"view"}},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}]}}`,
			`{"id":"done","match":{"tool_result":{"tool":"view"}},"respond":{"text":"done"}}`}
		h := newHarnessB(b, map[string]string{"a.txt": strings.Repeat("line\n", 40)}, `{"version":1,"name":"b","models":["sim"],"steps":[`+strings.Join(steps, ",")+`]}`)
		h.runner.Budgets.MaxTurns = 250
		b.StartTimer()
		res := h.runner.Run(context.Background(), taskStart{Request: "bench", NoVerify: true})
		if res.Status != "completed" || res.Turns != 200 {
			b.Fatalf("%s %d", res.Status, res.Turns)
		}
	}
}
