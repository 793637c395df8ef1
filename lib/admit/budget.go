package admit

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

// Budget dimensions, as named in budget_exhausted errors and events.
const (
	DimTurns     = "turns"
	DimActive    = "active_seconds"
	DimToolCalls = "tool_calls"
	DimTokens    = "total_tokens"
)

// Limits are a task's budgets (§43.1).
type Limits struct {
	Turns     int64         `json:"turns"`
	Active    time.Duration `json:"active"`
	ToolCalls int64         `json:"tool_calls"`
	Tokens    int64         `json:"total_tokens"`
}

// LimitsFromConfig reads the [harness] budgets.
func LimitsFromConfig(cfg *config.Config) Limits {
	return Limits{
		Turns:     cfg.Int("harness.max_turns"),
		Active:    cfg.Seconds("harness.max_active_seconds"),
		ToolCalls: cfg.Int("harness.max_tool_calls"),
		Tokens:    cfg.Int("harness.max_total_tokens"),
	}
}

// Usage is a task's consumption. It survives resume: a new attempt starts
// from the previous attempt's Usage, never from zero.
type Usage struct {
	Turns     int64         `json:"turns"`
	Active    time.Duration `json:"active"`
	ToolCalls int64         `json:"tool_calls"`
	Tokens    int64         `json:"total_tokens"`
	// TokensEstimated counts requests whose usage was not reported and
	// was charged at their full reservation instead (never as zero).
	TokensEstimated int `json:"tokens_estimated,omitempty"`
}

// Budget enforces one task's limits. Active time is wall time while the
// task runs; Pause stops the clock for waits on the user (approvals,
// questions) and Run restarts it. Safe for concurrent use.
type Budget struct {
	mu       sync.Mutex
	limits   Limits
	used     Usage
	reserved map[int64]int64
	nextRes  int64
	running  bool
	since    time.Time
	now      func() time.Time
}

// NewBudget returns a budget with prior consumption (zero for a new
// task). now may be nil (the wall clock). The clock starts paused.
func NewBudget(limits Limits, prior Usage, now func() time.Time) *Budget {
	if now == nil {
		now = time.Now
	}
	return &Budget{limits: limits, used: prior, reserved: map[int64]int64{}, now: now}
}

// Run starts (or keeps) the active-time clock.
func (b *Budget) Run() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.running {
		b.running, b.since = true, b.now()
	}
}

// Pause stops the active-time clock (waiting for the user, stopped).
func (b *Budget) Pause() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	b.running = false
}

func (b *Budget) settle() {
	if b.running {
		t := b.now()
		b.used.Active += t.Sub(b.since)
		b.since = t
	}
}

// Usage returns the consumption so far.
func (b *Budget) Usage() Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	return b.used
}

// Reserved is the tokens reserved for requests still in flight.
func (b *Budget) Reserved() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	var n int64
	for _, r := range b.reserved {
		n += r
	}
	return n
}

// Limits returns the current limits.
func (b *Budget) Limits() Limits {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limits
}

// RemainingActive is the active time left; request and queue deadlines
// are bounded by it.
func (b *Budget) RemainingActive() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	if r := b.limits.Active - b.used.Active; r > 0 {
		return r
	}
	return 0
}

func exhausted(dim string, limit, consumed any) *core.Error {
	return core.Errorf(core.CodeBudgetExhausted, "the %s budget is exhausted: %v used of a limit of %v", dim, consumed, limit).
		WithHint("extend the budget explicitly (the extension is audited) and resume the task").
		With("dimension", dim).With("limit", limit).With("consumed", consumed)
}

// CheckActive fails when the active-time budget is spent.
func (b *Budget) CheckActive() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.checkActive()
}

func (b *Budget) checkActive() error {
	b.settle()
	if b.used.Active >= b.limits.Active {
		return exhausted(DimActive, int64(b.limits.Active/time.Second), int64(b.used.Active/time.Second))
	}
	return nil
}

// BeginTurn counts one logical turn (not transport retries), failing
// without counting when the turn or time budget is spent.
func (b *Budget) BeginTurn() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.checkActive(); err != nil {
		return err
	}
	if b.used.Turns >= b.limits.Turns {
		return exhausted(DimTurns, b.limits.Turns, b.used.Turns)
	}
	b.used.Turns++
	return nil
}

// BeginToolCall counts one tool call.
func (b *Budget) BeginToolCall() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.checkActive(); err != nil {
		return err
	}
	if b.used.ToolCalls >= b.limits.ToolCalls {
		return exhausted(DimToolCalls, b.limits.ToolCalls, b.used.ToolCalls)
	}
	b.used.ToolCalls++
	return nil
}

// Reservation holds tokens for one physical request until reconciled.
type Reservation struct {
	id     int64
	Amount int64
}

// ReserveTokens reserves estimated input plus maximum output before a
// request; it fails when that does not fit the remaining token budget.
func (b *Budget) ReserveTokens(amount int64) (Reservation, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.checkActive(); err != nil {
		return Reservation{}, err
	}
	held := b.used.Tokens
	for _, r := range b.reserved {
		held += r
	}
	if amount < 0 || held+amount > b.limits.Tokens {
		return Reservation{}, exhausted(DimTokens, b.limits.Tokens, b.used.Tokens).
			With("reserved", held-b.used.Tokens).With("requested", amount)
	}
	b.nextRes++
	b.reserved[b.nextRes] = amount
	return Reservation{id: b.nextRes, Amount: amount}, nil
}

// Reconcile settles a reservation with reported usage. reported nil
// means the provider reported nothing: the full reservation is charged
// and the usage is flagged as estimated. It returns the tokens charged.
func (b *Budget) Reconcile(r Reservation, reported *int64) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.reserved[r.id]; !ok {
		return 0
	}
	delete(b.reserved, r.id)
	charged := r.Amount
	if reported != nil && *reported >= 0 {
		charged = *reported
	} else {
		b.used.TokensEstimated++
	}
	b.used.Tokens += charged
	return charged
}

// Release drops a reservation whose request was cancelled before dispatch.
func (b *Budget) Release(r Reservation) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.reserved, r.id)
}

// SetLimits applies new limits at a safe boundary. Consumption never
// resets: a limit below consumption blocks further work through the
// ordinary exhaustion errors.
func (b *Budget) SetLimits(l Limits) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.limits = l
}

// Extend raises one dimension's limit by amount on an explicit user
// action and returns the audit event to append (type "budget").
// Consumption is kept; the agent and YOLO never call this on their own.
func (b *Budget) Extend(dim string, amount int64, by string) (core.Event, error) {
	if amount <= 0 {
		return core.Event{}, core.Errorf(core.CodeUsage, "a budget extension must be positive, not %d", amount)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	var from, to int64
	switch dim {
	case DimTurns:
		from, b.limits.Turns = b.limits.Turns, b.limits.Turns+amount
		to = b.limits.Turns
	case DimToolCalls:
		from, b.limits.ToolCalls = b.limits.ToolCalls, b.limits.ToolCalls+amount
		to = b.limits.ToolCalls
	case DimTokens:
		from, b.limits.Tokens = b.limits.Tokens, b.limits.Tokens+amount
		to = b.limits.Tokens
	case DimActive:
		from = int64(b.limits.Active / time.Second)
		b.limits.Active += time.Duration(amount) * time.Second
		to = int64(b.limits.Active / time.Second)
	default:
		return core.Event{}, core.Errorf(core.CodeUsage, "unknown budget dimension %q", dim).
			WithHint("one of %s, %s, %s, %s", DimTurns, DimActive, DimToolCalls, DimTokens)
	}
	data, _ := json.Marshal(map[string]any{"action": "extension", "dimension": dim, "from": from, "to": to,
		"by": by, "usage": b.used})
	return core.Event{V: core.WireVersion, ID: core.NewID(core.KindEvent), TS: b.now().UTC(), Type: core.EvBudget, Data: data}, nil
}

func (l Limits) String() string {
	return fmt.Sprintf("turns=%d active=%s tool_calls=%d tokens=%d", l.Turns, l.Active, l.ToolCalls, l.Tokens)
}
