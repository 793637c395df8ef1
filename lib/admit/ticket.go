package admit

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
)

// Ticket is the single admission record of one physical request (arch
// §8.2): its token reservation against the task budget and its model and
// pool slot. Either both are held or neither is.
type Ticket struct {
	Slot   *Slot
	Tokens Reservation
	budget *Budget
}

// AdmitWithBudget reserves tokens (estimated input plus maximum output)
// on b, then admits req with its queue wait bounded by b's remaining
// active time. If admission fails the reservation is released.
func (a *Admission) AdmitWithBudget(ctx context.Context, b *Budget, req Request, tokens int64) (*Ticket, error) {
	res, err := b.ReserveTokens(tokens)
	if err != nil {
		return nil, err
	}
	if remaining := b.RemainingActive(); req.MaxWait <= 0 || req.MaxWait > remaining {
		req.MaxWait = remaining
	}
	if req.MaxWait <= 0 {
		b.Release(res)
		return nil, b.CheckActive()
	}
	slot, err := a.Admit(ctx, req)
	if err != nil {
		b.Release(res)
		return nil, err
	}
	return &Ticket{Slot: slot, Tokens: res, budget: b}, nil
}

// Dispatched records that the request was sent.
func (t *Ticket) Dispatched() error { return t.Slot.Dispatched() }

// Complete settles a finished request: the slot is freed and the tokens
// reconciled with reported usage (nil: charged at the reservation and
// flagged as estimated). It returns the tokens charged.
func (t *Ticket) Complete(reported *int64) (int64, error) {
	if err := t.Slot.Complete(); err != nil {
		return 0, err
	}
	return t.budget.Reconcile(t.Tokens, reported), nil
}

// CancelBeforeDispatch frees both the slot and the reservation.
func (t *Ticket) CancelBeforeDispatch() error {
	if err := t.Slot.CancelBeforeDispatch(); err != nil {
		return err
	}
	t.budget.Release(t.Tokens)
	return nil
}

// Uncertain records a timeout or disconnect after dispatch: the slot stays
// occupied until reconciled, and the tokens are charged conservatively at
// the full reservation now, since the remote work may have run.
func (t *Ticket) Uncertain() (int64, error) {
	if t.Slot.State() != core.SlotDispatched {
		return 0, core.Errorf(core.CodeIllegalTransition, "request %s is %s, not dispatched", t.Slot.ID, t.Slot.State())
	}
	if err := t.Slot.Uncertain(); err != nil {
		return 0, err
	}
	return t.budget.Reconcile(t.Tokens, nil), nil
}
