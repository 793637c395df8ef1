package tui

import (
	"sync"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// box is the coalescing event box every producer feeds and the screen
// goroutine drains (fzf's eventbox shape). Input events and port records
// are queued in order — none may be lost — while ticks, resizes and port
// loss are flags that collapse: a hundred animation ticks cost one wake.
type box struct {
	mu      sync.Mutex
	cond    *sync.Cond
	events  []tcell.Event
	records []port.Record
	tick    bool
	resize  bool
	lost    error
	closed  bool
	history []port.Event
}

// batch is everything that happened since the last wake.
type batch struct {
	events  []tcell.Event
	records []port.Record
	tick    bool
	resize  bool
	lost    error
	closed  bool
	history []port.Event
}

func newBox() *box {
	b := &box{}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *box) putEvent(ev tcell.Event) {
	b.mu.Lock()
	if _, ok := ev.(*tcell.EventResize); ok {
		b.resize = true
	}
	b.events = append(b.events, ev)
	b.mu.Unlock()
	b.cond.Signal()
}

func (b *box) putRecord(r port.Record) {
	b.mu.Lock()
	b.records = append(b.records, r)
	b.mu.Unlock()
	b.cond.Signal()
}

func (b *box) putHistory(evs []port.Event) { b.set(func() { b.history = append(b.history, evs...) }) }

func (b *box) setTick() { b.set(func() { b.tick = true }) }

func (b *box) setLost(err error) { b.set(func() { b.lost = err }) }

func (b *box) close() { b.set(func() { b.closed = true }) }

func (b *box) set(f func()) {
	b.mu.Lock()
	f()
	b.mu.Unlock()
	b.cond.Signal()
}

// wait blocks until something is pending and hands over all of it.
func (b *box) wait() batch {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.events) == 0 && len(b.records) == 0 && !b.tick && !b.resize && b.lost == nil && !b.closed && b.history == nil {
		b.cond.Wait()
	}
	out := batch{events: b.events, records: b.records, tick: b.tick, resize: b.resize, lost: b.lost, closed: b.closed, history: b.history}
	b.events, b.records, b.tick, b.resize, b.lost, b.history = nil, nil, false, false, nil, nil
	return out
}
