package telemetry

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// benchTurn is the instrumentation of one agent turn: a turn span, context
// construction, a GenAI call with one physical attempt, two policy checks
// and tool calls, a log line and a permission metric.
func benchTurn(rt *Runtime, ctx context.Context, n int) {
	tctx, turn := rt.StartTurn(ctx, n)
	_, cb := rt.StartContextBuild(tctx)
	cb.End(OutcomeOK, nil)
	cctx, chat := rt.StartChat(tctx, ChatRequest{Provider: "llama_swap", Model: "flash", Purpose: PurposeAgentTurn, Stream: true})
	_, pa := rt.StartProviderAttempt(cctx, 1)
	chat.FirstChunk()
	pa.End(OutcomeOK, nil)
	chat.Response(ChatResponse{Model: "flash", FinishReasons: []string{"tool_calls"}, InputTokens: Tokens(1200), OutputTokens: Tokens(80)})
	chat.End(OutcomeOK, nil)
	for _, tool := range []string{"read_file", "run_command"} {
		_, pol := rt.StartPolicyCheck(tctx, tool)
		pol.End("allow", nil)
		rt.Metrics().Permission(tctx, "allowed", "policy")
		xctx, tc := rt.StartToolCall(tctx, tool, "op")
		rt.Logger().InfoContext(xctx, "tool finished", "tool", tool)
		tc.End(OutcomeOK, nil)
	}
	turn.End(OutcomeOK, nil)
}

// BenchmarkTurn reports telemetry's producer-side cost per agent turn
// (mean ns/op plus p50/p99 per turn) with export disabled, with the local
// archive only, and with the archive plus OTLP export to a loopback
// collector. scripts/bench.d/telemetry runs it; nothing asserts timing.
func BenchmarkTurn(b *testing.B) {
	cases := []struct {
		name  string
		setup func(b *testing.B) *Runtime
	}{
		{"disabled", func(*testing.B) *Runtime { return nil }},
		{"archive", func(b *testing.B) *Runtime { return benchRuntime(b, "") }},
		{"archive+otlp", func(b *testing.B) *Runtime { return benchRuntime(b, newBenchReceiver(b)) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			rt := c.setup(b)
			ctx, att := rt.StartAttempt(context.Background(), AttemptInfo{Task: "bench", Attempt: "bench", Number: 1})
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				benchTurn(rt, ctx, i)
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			att.End("completed", nil)
			reportPercentiles(b, lat)
			if rt != nil {
				rt.Shutdown(context.Background())
				var drops int64
				for _, s := range rt.Health().Sinks {
					drops += s.DroppedTotal()
					b.ReportMetric(float64(s.HighWater), "highwater_"+s.Name)
				}
				b.ReportMetric(float64(drops), "dropped")
			}
		})
	}
}

func benchRuntime(b *testing.B, endpoint string) *Runtime {
	drive := filepath.Join(b.TempDir(), ".fluzodrive")
	if err := os.Mkdir(drive, 0o700); err != nil {
		b.Fatal(err)
	}
	o := Options{DriveDir: drive, Component: "bench"}
	if endpoint != "" {
		o.Export = Export{Enabled: true, Endpoint: endpoint}
	}
	rt, err := Start(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	return rt
}

func newBenchReceiver(b *testing.B) string {
	return newReceiver(b).url()
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	at := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Nanoseconds()) }
	b.ReportMetric(at(0.50), "p50-ns/turn")
	b.ReportMetric(at(0.99), "p99-ns/turn")
}
