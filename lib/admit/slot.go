package admit

import (
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Slot is one admitted request's hold on its model and pool capacity.
// Its state follows core.SlotState: reserved → dispatched → completed, or
// reserved → cancelled_before_dispatch, or dispatched → uncertain →
// completed (after explicit reconciliation). Occupied states count against
// capacity; there is no automatic release after dispatch.
type Slot struct {
	ID, Model, CapacityID, Pool string
	Class                       Class
	// QueueWait is how long the request waited in the queue, reported
	// separately from inference time.
	QueueWait time.Duration
	state     core.SlotState
	a         *Admission
}

// State returns the slot's current state.
func (s *Slot) State() core.SlotState {
	s.a.mu.Lock()
	defer s.a.mu.Unlock()
	return s.state
}

func (s *Slot) move(to core.SlotState) error {
	s.a.mu.Lock()
	defer s.a.mu.Unlock()
	if err := s.state.Transition(to); err != nil {
		return err
	}
	if to.Occupied() {
		s.state = to
		return nil
	}
	s.releaseLocked(to)
	return nil
}

// releaseLocked frees the capacity and lets queued work in; a.mu held.
func (s *Slot) releaseLocked(to core.SlotState) {
	s.state = to
	s.a.models[s.CapacityID].occupied--
	p := s.a.pools[s.Pool]
	p.occupied--
	if s.Class == Shadow {
		p.shadowOccupied--
	}
	s.a.grantQueued(p)
}

// Dispatched records that the request was sent.
func (s *Slot) Dispatched() error { return s.move(core.SlotDispatched) }

// Complete records confirmed completion and frees the slot.
func (s *Slot) Complete() error { return s.move(core.SlotCompleted) }

// CancelBeforeDispatch frees a slot whose request was never sent.
func (s *Slot) CancelBeforeDispatch() error { return s.move(core.SlotCancelledBeforeDispatch) }

// Uncertain records a timeout or disconnect after dispatch: the remote
// work may still run, so the slot stays occupied until Reconcile.
func (s *Slot) Uncertain() error { return s.move(core.SlotUncertain) }

// Reconcile settles an uncertain slot after the user confirmed (with a
// warning) that the remote request ended. It frees the slot.
func (s *Slot) Reconcile() error {
	if s.State() != core.SlotUncertain {
		return core.Errorf(core.CodeIllegalTransition, "slot %s is %s, not uncertain", s.ID, s.State())
	}
	return s.move(core.SlotCompleted)
}

// AdoptUncertain registers a request recovered from the repository's
// attempt journal whose remote outcome is unknown: it occupies its model
// and pool capacity as uncertain (even above the limit) until the user
// reconciles it. It is never re-dispatched.
func (a *Admission) AdoptUncertain(model string, class Class) (*Slot, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rt, ok := a.route[model]
	if !ok {
		return nil, core.Errorf(core.CodeInvalidConfiguration, "no model %q is configured", model).
			WithHint("keep the model's [models.%s] table until its uncertain requests are reconciled", model)
	}
	s := a.take(model, rt, class)
	s.state = core.SlotUncertain
	return s, nil
}
