package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// recorded collects the events an inbox records.
type recorded struct {
	types []string
	fail  error
}

func (r *recorded) record(_ context.Context, typ string, _ any) error {
	if r.fail != nil {
		return r.fail
	}
	r.types = append(r.types, typ)
	return nil
}

func TestInboxOrderAndEditUntilConsumed(t *testing.T) {
	var b Inbox
	rec := &recorded{}
	b.attach(rec.record)
	ctx := context.Background()
	a := b.queue("first")
	c := b.queue("second")
	if err := b.edit(ctx, a.ID, "first, edited"); err != nil {
		t.Fatal(err)
	}
	got := b.take()
	if len(got) != 2 || got[0].Text != "first, edited" || got[1].ID != c.ID {
		t.Fatalf("take: %+v", got)
	}
	if err := b.edit(ctx, a.ID, "too late"); err == nil {
		t.Fatal("a consumed intervention was edited")
	}
	if len(b.take()) != 0 || b.edit(ctx, "msg_nope", "x") == nil {
		t.Fatal("inbox state wrong")
	}
	if len(rec.types) != 1 || rec.types[0] != core.EvInterventionEdited {
		t.Fatalf("recorded %v, want one %s", rec.types, core.EvInterventionEdited)
	}
}

func TestInboxWithdrawUntilConsumed(t *testing.T) {
	var b Inbox
	rec := &recorded{}
	b.attach(rec.record)
	ctx := context.Background()
	a := b.queue("first")
	c := b.queue("second")
	if err := b.withdraw(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	got := b.take()
	if len(got) != 1 || got[0].ID != c.ID {
		t.Fatalf("a withdrawn intervention was delivered: %+v", got)
	}
	err := b.withdraw(ctx, c.ID)
	if core.CodeOf(err) != core.CodeInvalidRequest || core.AsError(err).Details["state"] != "delivered" {
		t.Fatalf("withdrawing a delivered intervention: %v, want a refusal naming it delivered", err)
	}
	if core.CodeOf(b.withdraw(ctx, a.ID)) != core.CodeNotFound {
		t.Fatal("a withdrawn intervention can be withdrawn again")
	}
	if len(rec.types) != 1 || rec.types[0] != core.EvInterventionWithdrawn {
		t.Fatalf("recorded %v, want one %s", rec.types, core.EvInterventionWithdrawn)
	}
}

// A change whose event cannot be recorded does not happen, and one before
// the attempt started (nowhere to record it) is refused.
func TestInboxChangeNeedsItsEvent(t *testing.T) {
	var b Inbox
	ctx := context.Background()
	a := b.queue("first")
	if err := b.edit(ctx, a.ID, "x"); err == nil {
		t.Fatal("an edit without a recorder was accepted")
	}
	rec := &recorded{fail: errors.New("disk full")}
	b.attach(rec.record)
	if b.withdraw(ctx, a.ID) == nil || b.edit(ctx, a.ID, "changed") == nil {
		t.Fatal("a change whose event failed was accepted")
	}
	if got := b.take(); len(got) != 1 || got[0].Text != "first" {
		t.Fatalf("the failed changes altered the queue: %+v", got)
	}
}
