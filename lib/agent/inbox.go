package agent

import (
	"context"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
)

// intervention is a user message queued for a running task. It is
// delivered at the next safe boundary (before a model request) in queue
// order, and can be edited or withdrawn until then.
type intervention struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Consumed bool   `json:"consumed"`
}

// interventionRecorder makes a change to the queue durable as an event of
// the task's attempt.
type interventionRecorder func(ctx context.Context, typ string, data any) error

// Inbox is the ordered intervention queue of one task.
type Inbox struct {
	mu     sync.Mutex
	items  []intervention
	record interventionRecorder
	// budgets are limits applied from the settings while the task runs,
	// taken at its next safe boundary (owner_config_budget.go).
	budgets *budgets
}

// attach names where edits and withdrawals are recorded: the attempt's
// journal, once the attempt has started.
func (b *Inbox) attach(rec interventionRecorder) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record = rec
}

// queue appends a new intervention and returns it.
func (b *Inbox) queue(text string) intervention {
	b.mu.Lock()
	defer b.mu.Unlock()
	in := intervention{ID: core.NewID(core.KindMessage), Text: text}
	b.items = append(b.items, in)
	return in
}

// edit replaces the text of a pending intervention; a consumed one cannot
// change any more.
func (b *Inbox) edit(ctx context.Context, id, text string) error {
	return b.change(ctx, id, core.EvInterventionEdited, func(i int) { b.items[i].Text = text },
		map[string]any{"id": id, "state": "queued", "bytes": len(text)})
}

// withdraw removes a pending intervention from the queue; a consumed one
// was already delivered and cannot be taken back.
func (b *Inbox) withdraw(ctx context.Context, id string) error {
	return b.change(ctx, id, core.EvInterventionWithdrawn, func(i int) { b.items = append(b.items[:i], b.items[i+1:]...) },
		map[string]any{"id": id, "state": "withdrawn"})
}

// change applies one edit or withdrawal atomically with respect to
// delivery: under the queue's lock it checks the intervention is still
// pending, records the durable event, and only then applies the change —
// so take cannot deliver it in between, and a change whose event could
// not be recorded does not happen.
func (b *Inbox) change(ctx context.Context, id, typ string, apply func(int), data map[string]any) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.items {
		if b.items[i].ID != id {
			continue
		}
		if b.items[i].Consumed {
			return core.Errorf(core.CodeInvalidRequest, "intervention %s was already delivered to the agent", id).
				WithHint("queue a new intervention instead").With("intervention", id).With("state", "delivered")
		}
		if b.record == nil {
			return core.Errorf(core.CodeInvalidRequest, "the task of intervention %s has not started its attempt yet", id).
				WithHint("try again in a moment").With("intervention", id)
		}
		if err := b.record(ctx, typ, data); err != nil {
			return err
		}
		apply(i)
		return nil
	}
	return core.Errorf(core.CodeNotFound, "no intervention %s", id).WithHint("list the task's interventions").With("intervention", id)
}

// pending reports whether an intervention waits for delivery (a nil
// Inbox has none).
func (b *Inbox) pending() bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, in := range b.items {
		if !in.Consumed {
			return true
		}
	}
	return false
}

// take marks every pending intervention consumed and returns them in
// queue order.
func (b *Inbox) take() []intervention {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []intervention
	for i := range b.items {
		if !b.items[i].Consumed {
			b.items[i].Consumed = true
			out = append(out, b.items[i])
		}
	}
	return out
}
