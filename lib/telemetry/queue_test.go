package telemetry

import (
	"context"
	"testing"
)

// The byte bound holds on its own: small records fill it long before the
// count bound, and every record past it is dropped and counted.
func TestQueueByteBoundDropsAndCounts(t *testing.T) {
	h := newSinkHealth("test.bytes", "traces", nil)
	release := make(chan struct{})
	q := newQueue[int](h, 1000, 100, 1, func(ctx context.Context, _ []int) error {
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
