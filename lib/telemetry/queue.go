package telemetry

import (
	"context"
	"sync"
	"time"
)

// Drop reasons, bounded and stable: they appear in Health and as the
// "reason" attribute of fluzo.telemetry.dropped.
const (
	DropQueueFull   = "queue_full"
	DropOversize    = "oversize"
	DropShutdown    = "shutdown"
	DropDeliveryKO  = "delivery_failed"
	DropArchiveFull = "archive_full"
)

// queue is one sink's bounded in-memory queue. offer never blocks: when the
// record would exceed the count or byte bound it is dropped and counted.
// A single worker drains batches into deliver, so a slow destination only
// ever fills its own queue.
type queue[T any] struct {
	health   *sinkHealth
	maxItems int
	maxBytes int
	maxBatch int
	deliver  func(ctx context.Context, batch []T) error

	mu       sync.Mutex
	items    []T
	sizes    []int
	bytes    int
	inflight int
	closed   bool
	// linger, when positive, is how long the worker waits after the
	// first record of a burst before it delivers, so that a burst goes
	// out as one batch: one write and one worker wakeup instead of one
	// per record. flush and close cut it short (urge).
	linger time.Duration
	urge   chan struct{}

	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
}

func newQueue[T any](h *sinkHealth, maxItems, maxBytes, maxBatch int, linger time.Duration, deliver func(context.Context, []T) error) *queue[T] {
	ctx, cancel := context.WithCancel(context.Background())
	q := &queue[T]{
		health: h, maxItems: maxItems, maxBytes: maxBytes, maxBatch: maxBatch, linger: linger, deliver: deliver,
		wake: make(chan struct{}, 1), urge: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
		ctx: ctx, cancel: cancel,
	}
	h.setBounds(maxItems, maxBytes)
	go q.run()
	return q
}

// offer admits v (of the given serialized or estimated size) or drops it.
func (q *queue[T]) offer(v T, size int) bool {
	q.mu.Lock()
	switch {
	case q.closed:
		q.mu.Unlock()
		q.health.drop(DropShutdown, 1)
		return false
	case size > q.maxBytes:
		q.mu.Unlock()
		q.health.drop(DropOversize, 1)
		return false
	case len(q.items) >= q.maxItems || q.bytes+size > q.maxBytes:
		q.mu.Unlock()
		q.health.drop(DropQueueFull, 1)
		return false
	}
	q.items = append(q.items, v)
	q.sizes = append(q.sizes, size)
	q.bytes += size
	full := len(q.items) >= q.maxBatch
	q.health.queued(len(q.items), q.bytes)
	q.mu.Unlock()
	signal(q.wake)
	if full {
		signal(q.urge) // a whole batch is waiting: no reason to linger
	}
	return true
}

// signal sends on a one-slot channel without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (q *queue[T]) run() {
	defer close(q.done)
	for {
		select {
		case <-q.wake:
		case <-q.stop:
			return
		}
		if q.linger > 0 {
			t := time.NewTimer(q.linger)
			select {
			case <-t.C:
			case <-q.urge:
			case <-q.stop:
			}
			t.Stop()
		}
		for q.drainOnce() {
		}
	}
}

// drainOnce delivers one batch; it reports whether anything was taken.
func (q *queue[T]) drainOnce() bool {
	q.mu.Lock()
	n := min(len(q.items), q.maxBatch)
	if n == 0 {
		q.mu.Unlock()
		return false
	}
	batch := make([]T, n)
	copy(batch, q.items[:n])
	taken := 0
	for _, s := range q.sizes[:n] {
		taken += s
	}
	clear(q.items[:n])
	q.items = q.items[n:]
	q.sizes = q.sizes[n:]
	q.bytes -= taken
	q.inflight = n
	q.health.queued(len(q.items), q.bytes)
	q.mu.Unlock()

	err := q.deliver(q.ctx, batch)
	if err != nil {
		q.health.failed(err, n)
	} else {
		q.health.delivered(n)
	}
	q.mu.Lock()
	q.inflight = 0
	q.mu.Unlock()
	return true
}

func (q *queue[T]) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items) == 0 && q.inflight == 0
}

// flush waits until everything admitted so far was delivered or ctx ends.
func (q *queue[T]) flush(ctx context.Context) error {
	signal(q.urge)
	signal(q.wake)
	t := time.NewTicker(2 * time.Millisecond)
	defer t.Stop()
	for !q.idle() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// close stops admission, drains within ctx, then stops the worker. What
// could not be delivered before the deadline is counted as dropped.
func (q *queue[T]) close(ctx context.Context) error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
	}
	q.closed = true
	q.mu.Unlock()
	err := q.flush(ctx)
	q.cancel()
	close(q.stop)
	<-q.done
	q.mu.Lock()
	if left := len(q.items); left > 0 {
		q.health.drop(DropShutdown, left)
		q.items, q.sizes, q.bytes = nil, nil, 0
		q.health.queued(0, 0)
	}
	q.mu.Unlock()
	return err
}
