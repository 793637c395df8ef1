package acp

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
)

// closeGrace is how long the bridge waits for serve to record the
// outcome of a task it cancelled at end of input (serve's own bound is
// 15 s) before it kills it.
const closeGrace = 20 * time.Second

// owner is the bridge's connection to `fluzo-agent serve`: commands with
// their answers, and the stream of events, live updates and results that
// goes to the prompt now running (one task at a time per workspace).
type owner struct {
	c *port.Client

	// mu orders a command's registration before its answer can be
	// routed: call holds it across Send and the waiter's registration.
	mu      sync.Mutex
	waiters map[string]chan port.Record
	sink    *queue
}

func newOwner(c *port.Client) *owner {
	o := &owner{c: c, waiters: map[string]chan port.Record{}}
	go o.route()
	return o
}

// route hands answers to their callers and everything else to the sink.
func (o *owner) route() {
	for rec := range o.c.Records() {
		o.mu.Lock()
		switch rec.Kind {
		case port.KindAck, port.KindError:
			re := ""
			if rec.Ack != nil {
				re = rec.Ack.Re
			} else {
				re = rec.Error.Re
			}
			if w, ok := o.waiters[re]; ok {
				delete(o.waiters, re)
				w <- rec
			}
		default:
			if o.sink != nil {
				o.sink.push(rec)
			}
		}
		o.mu.Unlock()
	}
	o.mu.Lock()
	if o.sink != nil {
		o.sink.close()
	}
	o.mu.Unlock()
}

// call sends one command and waits for its ack (returning its data) or
// its typed error; the port's loss is an error too.
func (o *owner) call(ctx context.Context, name string, args port.Args) (json.RawMessage, error) {
	w := make(chan port.Record, 1)
	o.mu.Lock()
	id, err := o.c.Send(name, args)
	if err == nil {
		o.waiters[id] = w
	}
	o.mu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case rec := <-w:
		if rec.Kind == port.KindError {
			e := rec.Error.Error
			return nil, &e
		}
		return rec.Ack.Data, nil
	case <-o.c.Done():
		return nil, o.c.Err()
	case <-ctx.Done():
		o.mu.Lock()
		delete(o.waiters, id)
		o.mu.Unlock()
		return nil, core.Wrap(ctx.Err(), core.CodeCancelled, "the request was cancelled before the owner answered "+name)
	}
}

// listen makes q receive the stream until release; records that arrive
// while nobody listens (a session.created, a yolo switch) are not needed.
// One prompt listens at a time, as one task runs at a time: a second is
// workspace_busy, the error start_task would give, before it can touch
// the running task's stream or its YOLO switch.
func (o *owner) listen(q *queue) (release func(), err error) {
	o.mu.Lock()
	if o.sink != nil {
		o.mu.Unlock()
		return nil, core.Errorf(core.CodeWorkspaceBusy, "a task is already running in this workspace (a prompt of another session)").
			WithHint("wait for its answer, or cancel it")
	}
	o.sink = q
	o.mu.Unlock()
	select {
	case <-o.c.Done():
		q.close()
	default:
	}
	return func() {
		o.mu.Lock()
		if o.sink == q {
			o.sink = nil
		}
		o.mu.Unlock()
	}, nil
}

func (o *owner) lost() bool {
	select {
	case <-o.c.Done():
		return true
	default:
		return false
	}
}

// queue is an unbounded FIFO of port records: the router never blocks on
// a slow editor, so answers to the prompt's own queries keep flowing.
type queue struct {
	mu     sync.Mutex
	items  []port.Record
	closed bool
	ready  chan struct{}
}

func newQueue() *queue { return &queue{ready: make(chan struct{}, 1)} }

func (q *queue) push(r port.Record) {
	q.mu.Lock()
	q.items = append(q.items, r)
	q.mu.Unlock()
	q.wake()
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.wake()
}

func (q *queue) wake() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// pop returns the next record; ok is false once the queue is closed and
// drained, or ctx ended.
func (q *queue) pop(ctx context.Context) (port.Record, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			r := q.items[0]
			q.items = q.items[1:]
			q.mu.Unlock()
			return r, true
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return port.Record{}, false
		}
		select {
		case <-q.ready:
		case <-ctx.Done():
			return port.Record{}, false
		}
	}
}
