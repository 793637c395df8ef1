package admit

import (
	"context"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

// Class separates foreground work (agent turns, compaction, probes),
// which may queue, from shadow observations, which never queue.
type Class string

const (
	Foreground Class = "foreground"
	Shadow     Class = "shadow"
)

// Admission is the process's single admission authority for model
// requests (§43.3, arch §8.2). One mutex guards every counter, so a
// request is admitted against its model and its pool atomically, in one
// step, and never holds one while waiting for the other.
type Admission struct {
	mu     sync.Mutex
	models map[string]*capacity // by capacity identity
	pools  map[string]*pool
	route  map[string]route // model entry id → capacity identity and pool
	now    func() time.Time
}

type route struct{ capacity, pool string }

type capacity struct {
	limit    int
	occupied int
}

type pool struct {
	limit, reserved, queueCap int
	queueTimeout              time.Duration
	occupied, shadowOccupied  int
	queue                     []*waiter
}

type waiter struct {
	model string
	rt    route
	ready chan *Slot
	slot  *Slot
}

// New builds the admission authority from a validated configuration.
func New(cfg *config.Config) *Admission {
	a := &Admission{models: map[string]*capacity{}, pools: map[string]*pool{}, route: map[string]route{}, now: time.Now}
	a.load(cfg)
	return a
}

// load (re)reads limits and routes; existing occupancy is kept.
func (a *Admission) load(cfg *config.Config) {
	for _, id := range cfg.IDs("capacity_pools") {
		p, _ := cfg.Pool(id)
		st := a.pools[id]
		if st == nil {
			st = &pool{}
			a.pools[id] = st
		}
		st.limit, st.reserved, st.queueCap, st.queueTimeout = p.MaxInFlight, p.ForegroundReservedSlots, p.QueueCapacity, p.QueueTimeout
	}
	for _, id := range cfg.IDs("models") {
		m, _ := cfg.Model(id)
		a.route[id] = route{capacity: m.CapacityID, pool: m.Pool}
		st := a.models[m.CapacityID]
		if st == nil {
			st = &capacity{}
			a.models[m.CapacityID] = st
		}
		st.limit = m.MaxInFlight
	}
}

// Apply makes new limits effective for this runtime. It is the only way a
// raised limit takes effect (an explicit user action, never a file
// watcher); a lowered limit drains: admitted requests finish, new ones
// wait until usage falls below the new limit. Nothing is cancelled and no
// occupancy is reset.
func (a *Admission) Apply(cfg *config.Config) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load(cfg)
	for _, p := range a.pools {
		a.grantQueued(p)
	}
}

// Request asks for one slot.
type Request struct {
	// Model is the [models.<id>] entry the request goes to.
	Model string
	Class Class
	// MaxWait bounds the queue wait, normally the task's remaining active
	// time; 0 means only the pool's queue_timeout_seconds applies.
	MaxWait time.Duration
	// Purpose is informational (turn, compaction, laya, probe).
	Purpose string
}

func (a *Admission) free(rt route) bool {
	m, p := a.models[rt.capacity], a.pools[rt.pool]
	return m.occupied < m.limit && p.occupied < p.limit
}

func (a *Admission) take(model string, rt route, class Class) *Slot {
	a.models[rt.capacity].occupied++
	p := a.pools[rt.pool]
	p.occupied++
	if class == Shadow {
		p.shadowOccupied++
	}
	return &Slot{ID: core.NewID(core.KindRequest), Model: model, CapacityID: rt.capacity, Pool: rt.pool,
		Class: class, state: core.SlotReserved, a: a}
}

// Admit returns a reserved slot, waiting in the pool's FIFO queue when
// needed (foreground only). Errors: capacity_exhausted (queue full, or a
// shadow request skipped), capacity_wait_timeout, cancelled.
func (a *Admission) Admit(ctx context.Context, req Request) (*Slot, error) {
	a.mu.Lock()
	rt, ok := a.route[req.Model]
	if !ok {
		a.mu.Unlock()
		return nil, core.Errorf(core.CodeInvalidConfiguration, "no model %q is configured", req.Model).
			WithHint("add a [models.%s] table to .fluzo", req.Model)
	}
	p := a.pools[rt.pool]
	if req.Class == Shadow {
		defer a.mu.Unlock()
		return a.admitShadow(req, rt, p)
	}
	if len(p.queue) == 0 && a.free(rt) {
		s := a.take(req.Model, rt, Foreground)
		a.mu.Unlock()
		return s, nil
	}
	if queued := len(p.queue); queued >= p.queueCap {
		a.mu.Unlock()
		return nil, core.Errorf(core.CodeCapacityExhausted, "the %s pool's queue is full (%d waiting)", rt.pool, queued).
			WithHint("wait for running requests to finish, or raise capacity_pools.%s.queue_capacity", rt.pool).
			With("pool", rt.pool).With("queued", queued)
	}
	w := &waiter{model: req.Model, rt: rt, ready: make(chan *Slot, 1)}
	p.queue = append(p.queue, w)
	wait := p.queueTimeout
	if req.MaxWait > 0 && req.MaxWait < wait {
		wait = req.MaxWait
	}
	a.mu.Unlock()
	return a.wait(ctx, w, p, wait)
}

func (a *Admission) wait(ctx context.Context, w *waiter, p *pool, wait time.Duration) (*Slot, error) {
	start := a.now()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var cause error
	select {
	case s := <-w.ready:
		s.QueueWait = a.now().Sub(start)
		return s, nil
	case <-timer.C:
		cause = core.Errorf(core.CodeCapacityWaitTimeout, "no %s slot became free within %s", w.rt.pool, wait).
			WithHint("the model is busy; retry later or raise capacity_pools.%s.max_in_flight if the server allows", w.rt.pool).
			With("pool", w.rt.pool).With("waited_ms", wait.Milliseconds())
	case <-ctx.Done():
		cause = core.Errorf(core.CodeCancelled, "the request was cancelled while queued for a %s slot", w.rt.pool)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if w.slot != nil { // granted while we gave up: keep FIFO honest, return it
		if cause != nil && core.CodeOf(cause) == core.CodeCancelled {
			w.slot.releaseLocked(core.SlotCancelledBeforeDispatch)
			return nil, cause
		}
		w.slot.QueueWait = a.now().Sub(start)
		return w.slot, nil
	}
	for i, q := range p.queue {
		if q == w {
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			break
		}
	}
	a.grantQueued(p)
	return nil, cause
}

// grantQueued admits queued foreground requests in FIFO order while the
// head of the queue fits; it must be called with a.mu held.
func (a *Admission) grantQueued(p *pool) {
	for len(p.queue) > 0 {
		w := p.queue[0]
		if !a.free(w.rt) {
			return
		}
		p.queue = p.queue[1:]
		w.slot = a.take(w.model, w.rt, Foreground)
		w.ready <- w.slot
	}
}

func (a *Admission) admitShadow(req Request, rt route, p *pool) (*Slot, error) {
	skip := func(why string) (*Slot, error) {
		return nil, core.Errorf(core.CodeCapacityExhausted, "shadow request skipped: %s", why).
			WithHint("observations never compete with foreground work; allocate more pool capacity to run them").
			With("skipped", true).With("pool", rt.pool).With("reason", why)
	}
	switch {
	case len(p.queue) > 0:
		return skip("foreground work is waiting")
	case p.shadowOccupied >= p.limit-p.reserved:
		return skip("the shadow allowance (max_in_flight - foreground_reserved_slots) is in use")
	case !a.free(rt):
		return skip("no model or pool capacity is free")
	}
	return a.take(req.Model, rt, Shadow), nil
}
