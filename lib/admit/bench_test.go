package admit

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/config"
)

// BenchmarkAdmitUncontended is the admission overhead per request on an
// idle pool (part of the < 2 ms runtime overhead per turn).
func BenchmarkAdmitUncontended(b *testing.B) {
	a := New(config.Defaults())
	for i := 0; i < b.N; i++ {
		s, _ := a.Admit(context.Background(), Request{Model: "coder"})
		s.Dispatched()
		s.Complete()
	}
}

// BenchmarkAdmitContended measures queue hand-over latency percentiles
// with 32 goroutines sharing a 4-slot pool.
func BenchmarkAdmitContended(b *testing.B) {
	cfg, err := config.Parse([]byte("schema_version = 1\n[models.coder]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\nmax_in_flight = 4\n[capacity_pools.local_server]\nmax_in_flight = 4\nqueue_capacity = 64\n"), "bench")
	if err != nil {
		b.Fatal(err)
	}
	a := New(cfg)
	var mu sync.Mutex
	var waits []time.Duration
	var wg sync.WaitGroup
	per := b.N/32 + 1
	b.ResetTimer()
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				start := time.Now()
				s, err := a.Admit(context.Background(), Request{Model: "coder"})
				if err != nil {
					continue
				}
				d := time.Since(start)
				s.Dispatched()
				s.Complete()
				mu.Lock()
				waits = append(waits, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	sort.Slice(waits, func(i, j int) bool { return waits[i] < waits[j] })
	if n := len(waits); n > 0 {
		b.ReportMetric(float64(waits[n/2].Nanoseconds()), "p50-ns")
		b.ReportMetric(float64(waits[n*99/100].Nanoseconds()), "p99-ns")
	}
}
