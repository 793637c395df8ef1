// Package admit decides whether work may start now: task budgets
// (Budget), per-process model and pool admission (Admission, Slot) and
// exclusive workspace ownership (AcquireOwner, OwnerStatus).
//
// Budgets: NewBudget(LimitsFromConfig(cfg), priorUsage, nil); Run/Pause
// the active clock around user waits; BeginTurn, BeginToolCall,
// ReserveTokens → Reconcile (nil usage is charged at the reservation and
// flagged) or Release; exhaustion is a budget_exhausted core error whose
// details carry dimension, limit and consumed; Extend is the audited,
// explicit extension.
//
// Admission: New(cfg) once per process; Admit(ctx, Request{Model, Class,
// MaxWait: budget.RemainingActive()}) returns a reserved Slot or
// capacity_exhausted / capacity_wait_timeout / cancelled. Walk the slot
// through Dispatched → Complete, CancelBeforeDispatch, or Uncertain →
// Reconcile; an uncertain slot stays occupied. Apply(cfg) is the explicit
// application of changed limits (lowered limits drain, raised ones apply
// only then). Shadow requests are skipped, never queued.
// AdmitWithBudget combines both into one Ticket (token reservation plus
// slot, arch §8.2): Complete(usage), CancelBeforeDispatch, Uncertain.
// Create one Admission per process (§43.3: no cross-process coordination).
//
// Ownership: AcquireOwner(<workspace>/.fluzodrive, opts) flocks owner.lock
// and writes owner.json; a second owner gets workspace_busy naming the
// first; a crashed predecessor is reported in Record.Previous and never
// signalled. Owner.Release ends ownership cleanly.
package admit
