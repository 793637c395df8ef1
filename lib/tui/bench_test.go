package tui

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Benchmarks for scripts/bench tui: figures are reported, never asserted.

func reportPercentiles(b *testing.B, name string, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	at := func(p float64) float64 { return float64(d[int(p*float64(len(d)-1))].Microseconds()) }
	b.ReportMetric(at(0.50), name+"-p50-µs")
	b.ReportMetric(at(0.95), name+"-p95-µs")
	b.ReportMetric(at(0.99), name+"-p99-µs")
}

func historyHarness(b *testing.B, items int) *harness {
	t := &testing.T{}
	h := newHarness(t, 160, 50, Options{FPS: 60, Caps: theme.Caps{Depth: theme.TrueColor}})
	h.t = t
	running(h)
	var recs []string
	for i := 0; i < items; i++ {
		switch i % 3 {
		case 0:
			recs = append(recs, ev(10+i, "message", "", fmt.Sprintf(`{"role":"assistant","content":"## Step %d\n\nChecking **src/lib.rs** with `+"`cargo test`"+` and reading the failure.\n\n- one\n- two"}`, i)))
		case 1:
			recs = append(recs, ev(10+i, "operation.requested", fmt.Sprintf("op_%d", i), `{"tool":"exec"}`))
		default:
			recs = append(recs, ev(10+i, "operation.result", fmt.Sprintf("op_%d", i-1), `{"tool":"exec","from":"dispatched","to":"succeeded"}`))
		}
	}
	h.records(recs...)
	return h
}

// BenchmarkRenderFull160x50History10k: a full frame (input, resize) with
// 10k items in memory (the conversation keeps maxItems of them).
func BenchmarkRenderFull160x50History10k(b *testing.B) {
	h := historyHarness(b, 10000)
	var d []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := time.Now()
		h.app.dirty.all = true
		h.app.render()
		d = append(d, time.Since(s))
	}
	reportPercentiles(b, "frame", d)
}

// BenchmarkStreamDeltaFrame: one wake with a streamed delta at 160x50
// over 10k items: only the streaming item is laid out again.
func BenchmarkStreamDeltaFrame(b *testing.B) {
	h := historyHarness(b, 10000)
	rec := mustDecode(delta("more streamed words "))
	var d []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := time.Now()
		h.app.wake(batch{records: []portRecord{rec}})
		d = append(d, time.Since(s))
	}
	reportPercentiles(b, "delta", d)
}

// BenchmarkInputUnderStream: a key's wake while the §49.2 stream (50
// deltas/s, 10 tool events/s) is arriving, at each animation rate: the
// batch a key lands in carries the records of one frame interval.
func BenchmarkInputUnderStream(b *testing.B) {
	for _, fps := range []int{60, 30, 15, 0} {
		b.Run(fmt.Sprintf("fps%d", fps), func(b *testing.B) {
			h := historyHarness(b, 200)
			interval := 16 * time.Millisecond
			if fps > 0 {
				interval = newFrames(fps).interval
			}
			deltas := max(1, int(50*interval/time.Second))
			var d []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var bt batch
				for k := 0; k < deltas; k++ {
					bt.records = append(bt.records, mustDecode(delta("word ")))
				}
				if i%5 == 0 {
					bt.records = append(bt.records, mustDecode(ev(100000+i, "operation.requested", fmt.Sprintf("op_s%d", i), `{"tool":"exec"}`)))
				}
				bt.events = []tcell.Event{runeKey('x')}
				h.clock.Advance(interval)
				s := time.Now()
				h.app.wake(bt)
				d = append(d, time.Since(s))
			}
			reportPercentiles(b, "input", d)
		})
	}
}

// BenchmarkIdentityFrame: an animation tick (identity cells only).
func BenchmarkIdentityFrame(b *testing.B) {
	h := historyHarness(b, 10000)
	var d []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.clock.Advance(newFrames(60).interval)
		s := time.Now()
		h.app.dirty.identity = true
		h.app.render()
		d = append(d, time.Since(s))
	}
	reportPercentiles(b, "tick", d)
}
