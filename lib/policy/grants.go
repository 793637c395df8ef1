package policy

import (
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Grant is an active permission with an exact scope.
type Grant struct {
	ID     string          `json:"id"`
	Scope  core.GrantScope `json:"scope"`
	Spec   Spec            `json:"-"`
	Source string          `json:"source"` // user, cli, config
	TaskID string          `json:"task,omitempty"`
}

// Record returns the durable record of g in state s.
func (g Grant) Record(s core.GrantState, created time.Time) core.Grant {
	return core.Grant{ID: g.ID, TaskID: g.TaskID, Scope: g.Scope, Spec: g.Spec.Redacted(), State: s,
		Source: g.Source, CreatedAt: created}
}

// Expiry reasons for task grants (§12.1).
const (
	ExpiredTaskCompleted = "task_completed"
	ExpiredTaskFailed    = "task_failed"
	ExpiredCancelled     = "cancelled"
	ExpiredInterrupted   = "interrupted"
)

// grantEventData is the redacted payload of grant lifecycle events.
type grantEventData struct {
	Grant  string          `json:"grant"`
	Scope  core.GrantScope `json:"scope"`
	Spec   string          `json:"spec"`
	Source string          `json:"source,omitempty"`
	State  core.GrantState `json:"state"`
	Reason string          `json:"reason,omitempty"`
}

func grantEvent(typ string, g Grant, state core.GrantState, reason, operation string) core.Event {
	data, _ := json.Marshal(grantEventData{Grant: g.ID, Scope: g.Scope, Spec: g.Spec.Redacted(),
		Source: g.Source, State: state, Reason: reason})
	return core.Event{V: core.WireVersion, ID: core.NewID(core.KindEvent), TS: time.Now().UTC(), Type: typ,
		Task: g.TaskID, Operation: operation, Data: data}
}

// IssuedEvent is the audit event for a newly issued grant.
func IssuedEvent(g Grant) core.Event {
	return grantEvent(core.EvGrantIssued, g, core.GrantIssued, "", "")
}

// ConsumedEvent records a once grant consumed by operation (append it in
// the same transaction as the operation intent).
func ConsumedEvent(g Grant, operation string) core.Event {
	return grantEvent(core.EvGrantConsumed, g, core.GrantConsumed, "", operation)
}

// ExpiredEvent records a grant that ended with its task (reason is one of
// the Expired* constants).
func ExpiredEvent(g Grant, reason string) core.Event {
	return grantEvent(core.EvGrantExpired, g, core.GrantExpired, reason, "")
}

// RevokedEvent records a grant revoked by the user.
func RevokedEvent(g Grant, by string) core.Event {
	return grantEvent(core.EvGrantRevoked, g, core.GrantRevoked, by, "")
}

// Ledger holds the once and task grants of one runtime in memory and
// returns the audit event of every lifecycle step; the caller appends the
// events through the store. Grants are never restored on recovery.
type Ledger struct {
	mu     sync.Mutex
	grants map[string]*ledgerEntry
}

type ledgerEntry struct {
	grant Grant
	state core.GrantState
	seq   int
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{grants: map[string]*ledgerEntry{}} }

// Issue records a new once or task grant for taskID.
func (l *Ledger) Issue(spec Spec, scope core.GrantScope, taskID, source string) (Grant, core.Event, error) {
	if scope != core.GrantOnce && scope != core.GrantTask {
		return Grant{}, core.Event{}, core.Errorf(core.CodeInvalidRequest, "a %s grant cannot be issued at run time", scope).
			WithHint("standing grants come only from policy.grants in .fluzo")
	}
	g := Grant{ID: core.NewID(core.KindGrant), Scope: scope, Spec: spec, Source: source, TaskID: taskID}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.grants[g.ID] = &ledgerEntry{grant: g, state: core.GrantIssued, seq: len(l.grants)}
	return g, IssuedEvent(g), nil
}

// Active returns the issued grants of taskID in issue order.
func (l *Ledger) Active(taskID string) []Grant {
	l.mu.Lock()
	defer l.mu.Unlock()
	var entries []*ledgerEntry
	for _, e := range l.grants {
		if e.state == core.GrantIssued && e.grant.TaskID == taskID {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].seq < entries[j].seq })
	out := make([]Grant, len(entries))
	for i, e := range entries {
		out[i] = e.grant
	}
	return out
}

func (l *Ledger) move(id string, to core.GrantState) (Grant, error) {
	e, ok := l.grants[id]
	if !ok {
		return Grant{}, core.Errorf(core.CodeNotFound, "no grant %s", id).WithHint("list active grants first")
	}
	if err := e.state.Transition(to); err != nil {
		return Grant{}, core.Errorf(core.CodeIllegalTransition, "grant %s is %s and cannot become %s", id, e.state, to).
			WithHint("a grant is used, expired or revoked only once")
	}
	e.state = to
	return e.grant, nil
}

// Consume marks a once grant used by operation. A task grant is not
// consumed: it stays active until its task ends.
func (l *Ledger) Consume(id, operation string) (core.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.grants[id]; ok && e.grant.Scope != core.GrantOnce {
		return core.Event{}, core.Errorf(core.CodeInvalidRequest, "grant %s is a %s grant; only once grants are consumed", id, e.grant.Scope)
	}
	g, err := l.move(id, core.GrantConsumed)
	if err != nil {
		return core.Event{}, err
	}
	return ConsumedEvent(g, operation), nil
}

// Revoke ends a grant for future dispatches.
func (l *Ledger) Revoke(id, by string) (core.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, err := l.move(id, core.GrantRevoked)
	if err != nil {
		return core.Event{}, err
	}
	return RevokedEvent(g, by), nil
}

// ExpireTask expires every active grant of taskID (task completed,
// failed, cancelled or interrupted) and returns their events.
func (l *Ledger) ExpireTask(taskID, reason string) []core.Event {
	var events []core.Event
	for _, g := range l.Active(taskID) {
		l.mu.Lock()
		if _, err := l.move(g.ID, core.GrantExpired); err == nil {
			events = append(events, ExpiredEvent(g, reason))
		}
		l.mu.Unlock()
	}
	return events
}
