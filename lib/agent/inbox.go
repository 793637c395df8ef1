package agent

import (
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

// Inbox is the ordered intervention queue of one task.
type Inbox struct {
	mu    sync.Mutex
	items []intervention
	// budgets are limits applied from the settings while the task runs,
	// taken at its next safe boundary (owner_config_budget.go).
	budgets *budgets
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
func (b *Inbox) edit(id, text string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.items {
		if b.items[i].ID == id {
			if b.items[i].Consumed {
				return core.Errorf(core.CodeInvalidRequest, "intervention %s was already delivered to the agent", id).
					WithHint("queue a new intervention instead")
			}
			b.items[i].Text = text
			return nil
		}
	}
	return core.Errorf(core.CodeNotFound, "no intervention %s", id).WithHint("list the task's interventions")
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
