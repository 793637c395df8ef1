// Package notify is the TUI's bounded in-app notification queue (PRD
// §29.3.1): notices keyed by the event they report, coalesced on
// repeated delivery, evicted lowest priority first on overflow, expired
// on monotonic time from receipt (pending ones included). It does no
// I/O and reads no clock: every call takes the caller's monotonic now.
package notify

import (
	"fmt"
	"time"
)

// Severity is what a notice reports; it sets its label and its priority.
type Severity uint8

const (
	Info    Severity = iota // informational (cancelled, warnings from the port)
	Success                 // a task completed
	Warning                 // blocked, or waiting for an approval: needs the person
	Error                   // a failure or a lost backend
)

var labels = [...]string{"INFO", "DONE", "ATTENTION", "ERROR"}

// Label is the always-shown severity word: colour is never the only signal.
func (s Severity) Label() string { return labels[s] }

// priority orders eviction: failure > approval/blocked > everything else.
func (s Severity) priority() int {
	switch s {
	case Error:
		return 2
	case Warning:
		return 1
	}
	return 0
}

// The product-owner bounds (PRD §29.3.1) and the queue's own metadata
// bounds: retained notices, their text and key, the memory of keys
// already delivered, the repeat count and the dropped aggregate.
const (
	MaxRetained  = 32
	MaxTextBytes = 1024
	MaxKeyBytes  = 128
	seenKeys     = 128
	maxCount     = 999
	MaxDropped   = 9999

	MinDuration     = time.Second
	MaxDuration     = 30 * time.Second
	DefaultDuration = 5 * time.Second
	MinVisible      = 1
	MaxVisible      = 5
	DefaultVisible  = 3
)

// Config is the queue's settings (tui.notifications.*).
type Config struct {
	Duration   time.Duration
	MaxVisible int
}

// DefaultConfig is the registry's defaults: 5 s and 3 visible.
func DefaultConfig() Config { return Config{Duration: DefaultDuration, MaxVisible: DefaultVisible} }

// Validate rejects out-of-range values; nothing is ever clamped.
func (c Config) Validate() error {
	if c.Duration < MinDuration || c.Duration > MaxDuration || c.Duration%time.Second != 0 {
		return fmt.Errorf("tui.notifications.duration_seconds: %v is out of range (valid: an integer from 1 to 30)", c.Duration.Seconds())
	}
	if c.MaxVisible < MinVisible || c.MaxVisible > MaxVisible {
		return fmt.Errorf("tui.notifications.max_visible: %d is out of range (valid: an integer from 1 to 5)", c.MaxVisible)
	}
	return nil
}

// Notice is one retained presentation record. It references task state
// (the glue keeps the task, card or result); it never owns it.
type Notice struct {
	ID       uint64 // the queue's own sequence, for dismissal
	Key      string // the event's identity: one key, one notice
	Severity Severity
	Text     string // sanitized, one line, at most MaxTextBytes
	Hint     string // a short action hint, same bounds as Text
	Count    int    // deliveries coalesced into this notice (1..maxCount)
	Received time.Duration
	Deadline time.Duration // Received + the duration at receipt; never extended
}

// Outcome says what Push did with a delivery.
type Outcome uint8

const (
	Added     Outcome = iota // a new notice is retained
	Coalesced                // the same event again: counted, deadline unchanged
	Replayed                 // an event already delivered and gone: not shown again
	Dropped                  // no room, and every retained notice outranks it
)

// Queue holds at most MaxRetained notices, oldest first.
type Queue struct {
	cfg     Config
	items   []Notice
	seen    [seenKeys]string // ring of keys already delivered
	seenAt  int
	nextID  uint64
	dropped int
}

// New returns an empty queue with cfg, which must be valid.
func New(cfg Config) (*Queue, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Queue{cfg: cfg, items: make([]Notice, 0, MaxRetained)}, nil
}

// Config is the queue's current settings.
func (q *Queue) Config() Config { return q.cfg }

// SetConfig applies new settings, or rejects them and keeps the prior
// ones. Retained notices keep the deadline they got at receipt.
func (q *Queue) SetConfig(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	q.cfg = cfg
	return nil
}

// Push delivers one event at now.
func (q *Queue) Push(now time.Duration, key string, sev Severity, text, hint string) Outcome {
	q.Expire(now)
	key = Clip(key, MaxKeyBytes)
	for i := range q.items {
		if q.items[i].Key == key {
			if q.items[i].Count < maxCount {
				q.items[i].Count++
			}
			return Coalesced
		}
	}
	if q.wasSeen(key) {
		return Replayed
	}
	q.remember(key)
	if len(q.items) == MaxRetained {
		v := q.victim()
		if q.items[v].Severity.priority() > sev.priority() {
			q.countDrop()
			return Dropped // a newcomer never evicts a higher priority
		}
		q.items = append(q.items[:v], q.items[v+1:]...)
		q.countDrop()
	}
	q.nextID++
	q.items = append(q.items, Notice{ID: q.nextID, Key: key, Severity: sev,
		Text: Clip(text, MaxTextBytes), Hint: Clip(hint, MaxTextBytes),
		Count: 1, Received: now, Deadline: now + q.cfg.Duration})
	return Added
}

// victim is the lowest-priority notice, the oldest within it.
func (q *Queue) victim() int {
	v := 0
	for i := range q.items {
		if q.items[i].Severity.priority() < q.items[v].Severity.priority() {
			v = i
		}
	}
	return v
}

func (q *Queue) countDrop() {
	if q.dropped < MaxDropped {
		q.dropped++
	}
}

func (q *Queue) wasSeen(key string) bool {
	for _, k := range q.seen {
		if k == key && k != "" {
			return true
		}
	}
	return false
}

func (q *Queue) remember(key string) {
	q.seen[q.seenAt] = key
	q.seenAt = (q.seenAt + 1) % seenKeys
}

// Expire removes every notice whose deadline has passed, shown or still
// pending, and reports whether anything left. An empty stack forgets its
// dropped count: the aggregate describes the stack the person sees.
func (q *Queue) Expire(now time.Duration) bool {
	kept := q.items[:0]
	for _, n := range q.items {
		if n.Deadline > now {
			kept = append(kept, n)
		}
	}
	changed := len(kept) != len(q.items)
	q.items = kept
	if len(q.items) == 0 {
		q.dropped = 0
	}
	return changed
}

// Visible is the notices shown with room for slots: min(slots,
// MaxVisible) of them, oldest first; slots may be zero.
func (q *Queue) Visible(slots int) []Notice {
	n := min(max(slots, 0), q.cfg.MaxVisible, len(q.items))
	return q.items[:n]
}

// Pending is how many retained notices the slots leave unshown.
func (q *Queue) Pending(slots int) int { return len(q.items) - len(q.Visible(slots)) }

// Len is the number of retained notices.
func (q *Queue) Len() int { return len(q.items) }

// Dropped is the bounded count of notices discarded for room.
func (q *Queue) Dropped() int { return q.dropped }

// Dismiss removes the notice id; it changes nothing else.
func (q *Queue) Dismiss(id uint64) bool {
	for i := range q.items {
		if q.items[i].ID == id {
			q.items = append(q.items[:i], q.items[i+1:]...)
			if len(q.items) == 0 {
				q.dropped = 0
			}
			return true
		}
	}
	return false
}

// RemoveIf removes the notices f selects (one whose subject was resolved
// elsewhere) and reports whether any went.
func (q *Queue) RemoveIf(f func(Notice) bool) bool {
	kept := q.items[:0]
	for _, n := range q.items {
		if !f(n) {
			kept = append(kept, n)
		}
	}
	changed := len(kept) != len(q.items)
	q.items = kept
	if len(q.items) == 0 {
		q.dropped = 0
	}
	return changed
}

// NextDeadline is the earliest deadline of a retained notice.
func (q *Queue) NextDeadline() (time.Duration, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	d := q.items[0].Deadline
	for _, n := range q.items[1:] {
		d = min(d, n.Deadline)
	}
	return d, true
}
