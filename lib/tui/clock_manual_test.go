package tui

import (
	"sync"
	"time"
)

// manualClock is a Clock driven by Advance, for tests and benchmarks.
type manualClock struct {
	mu     sync.Mutex
	now    time.Duration
	timers []*manualTimer
	armed  int // timers ever armed, for "no timer when static" checks
}

type manualTimer struct {
	at      time.Duration
	f       func()
	stopped bool
	c       *manualClock
}

func (t *manualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

func (c *manualClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) AfterFunc(d time.Duration, f func()) Stopper {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{at: c.now + d, f: f, c: c}
	c.timers = append(c.timers, t)
	c.armed++
	return t
}

// Advance moves time forward and fires due timers.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += d
	var due []*manualTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped:
		case t.at <= c.now:
			t.stopped = true
			due = append(due, t)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

// pending counts timers armed and not yet fired or stopped.
func (c *manualClock) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.stopped {
			n++
		}
	}
	return n
}
