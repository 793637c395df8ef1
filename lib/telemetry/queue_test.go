package telemetry

import (
	"context"
	"sync"
	"testing"
	"time"
)

// The byte bound holds on its own: small records fill it long before the
// count bound, and every record past it is dropped and counted.
func TestQueueByteBoundDropsAndCounts(t *testing.T) {
	h := newSinkHealth("test.bytes", "traces", nil)
	release := make(chan struct{})
	q := newQueue[int](h, 1000, 100, 1, 0, func(ctx context.Context, _ []int) error {
		select { // a stalled destination
		case <-release:
		case <-ctx.Done():
		}
		return nil
	})
	defer q.close(context.Background()) // after release: deferred calls run last-first
	defer close(release)
	accepted := 0
	for i := 0; i < 20; i++ {
		if q.offer(i, 30) {
			accepted++
		}
	}
	s := h.snapshot()
	// One record may already be taken by the stalled worker, three fit.
	if accepted > 4 || s.QueuedBytes > 100 || s.Dropped[DropQueueFull] != int64(20-accepted) {
		t.Fatalf("accepted %d, queued %d bytes, dropped %v", accepted, s.QueuedBytes, s.Dropped)
	}
	if q.offer(99, 101) || h.snapshot().Dropped[DropOversize] != 1 {
		t.Fatalf("an oversize record was not refused and counted: %v", h.snapshot().Dropped)
	}
}

// A lingering queue (the archive's) delivers a burst as one batch: records
// offered while it waits go out together when flush or close cuts the
// wait short, or a full batch is waiting — never one write per record.
func TestLingeringQueueDeliversABurstAsOneBatch(t *testing.T) {
	h := newSinkHealth("test.linger", "traces", nil)
	var mu sync.Mutex
	var batches [][]int
	q := newQueue[int](h, 1000, 1<<20, 8, time.Hour, func(_ context.Context, b []int) error {
		mu.Lock()
		batches = append(batches, b)
		mu.Unlock()
		return nil
	})
	for i := 0; i < 5; i++ {
		q.offer(i, 1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard, not a timing check
	defer cancel()
	if err := q.flush(ctx); err != nil {
		t.Fatalf("flush did not cut the linger short: %v", err)
	}
	mu.Lock()
	got := append([][]int(nil), batches...)
	mu.Unlock()
	if len(got) != 1 || len(got[0]) != 5 {
		t.Fatalf("a burst of 5 was delivered as %v, want one batch", got)
	}
	// A full batch does not wait for the linger either.
	for i := 0; i < 8; i++ {
		q.offer(i, 1)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(batches)
		mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a full batch waited for the linger")
		}
	}
	for i := 0; i < 3; i++ {
		q.offer(i, 1)
	}
	if err := q.close(ctx); err != nil || h.snapshot().Dropped[DropShutdown] != 0 {
		t.Fatalf("close lost what lingered: %v, dropped %v", err, h.snapshot().Dropped)
	}
	if mu.Lock(); len(batches) != 3 || len(batches[2]) != 3 {
		t.Errorf("batches %v", batches)
	}
	mu.Unlock()
}
