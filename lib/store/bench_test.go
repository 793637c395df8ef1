package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Benchmarks for scripts/bench.d/store. They report events/s and the
// latency percentiles of each commit; nothing asserts a timing.

func benchStore(b *testing.B) (*Store, string) {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	gitInit(b, dir)
	ws, err := ResolveWorkspace(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := AddGitExclude(ctx, ws); err != nil {
		b.Fatal(err)
	}
	s, err := Open(ctx, ws)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	var ses core.Session
	if err := s.Write(ctx, func(tx *Tx) error { _, err := tx.CreateSession(&ses); return err }); err != nil {
		b.Fatal(err)
	}
	return s, ses.ID
}

func benchAppend(b *testing.B, batch int) {
	s, ses := benchStore(b)
	ctx := context.Background()
	evs := make([]core.Event, batch)
	for i := range evs {
		evs[i] = core.Event{Type: "bench.tick", Session: ses, Data: []byte(`{"n":1}`)}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := s.AppendBatch(ctx, evs); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(lat[len(lat)*50/100].Microseconds()), "p50-commit-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-commit-µs")
}

// BenchmarkAppendSingle commits one event per transaction (one fsync each).
func BenchmarkAppendSingle(b *testing.B) { benchAppend(b, 1) }

// BenchmarkAppendBatch commits 1000 events per transaction, the streaming
// checkpoint path.
func BenchmarkAppendBatch(b *testing.B) { benchAppend(b, 1000) }
