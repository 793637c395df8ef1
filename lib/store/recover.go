package store

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
)

// ReasonInterrupted is the task reason recovery records.
const ReasonInterrupted = core.InterruptedReason

// RecoveryReport lists what Recover changed.
type RecoveryReport struct {
	Attempts         []string `json:"attempts"`          // running → interrupted
	Operations       []string `json:"operations"`        // intent_committed/dispatched → unknown
	Tasks            []string `json:"tasks"`             // → blocked (reason interrupted)
	ProviderRequests []string `json:"provider_requests"` // dispatched → uncertain, reserved → cancelled_before_dispatch
	Grants           []string `json:"grants"`            // unused once grants → expired
}

// Changed reports whether recovery had anything to do.
func (r RecoveryReport) Changed() bool {
	return len(r.Attempts)+len(r.Operations)+len(r.Tasks)+len(r.ProviderRequests)+len(r.Grants) > 0
}

// Recover applies the PRD §22.1 restart rules in one transaction, each
// change with its event: running attempts become interrupted; operations
// with an intent but no recorded outcome become unknown (never retried);
// their tasks become blocked with reason "interrupted"; in-flight provider
// requests become uncertain (or cancelled_before_dispatch when never
// sent); unused once grants of those tasks expire. It executes nothing.
// Only the workspace owner may call it, after acquiring ownership.
func (s *Store) Recover(ctx context.Context) (RecoveryReport, error) {
	var rep RecoveryReport
	err := s.Write(ctx, func(tx *Tx) error {
		rep = RecoveryReport{}
		attempts, err := tx.ids("SELECT id FROM attempts WHERE state = ? ORDER BY started_at, id", core.AttemptRunning)
		if err != nil {
			return err
		}
		tasks := map[string]bool{}
		var taskOrder []string
		for _, id := range attempts {
			if err := tx.recoverAttempt(id, &rep); err != nil {
				return err
			}
			a, err := tx.GetAttempt(ctx, id)
			if err != nil {
				return err
			}
			if !tasks[a.TaskID] {
				tasks[a.TaskID] = true
				taskOrder = append(taskOrder, a.TaskID)
			}
		}
		// Unresolved operations of attempts that already ended (a crash
		// between the attempt's end and the operation outcome) are also
		// unknown: no outcome was recorded.
		if err := tx.recoverOperations("", &rep); err != nil {
			return err
		}
		for _, id := range taskOrder {
			if err := tx.recoverTask(id, &rep); err != nil {
				return err
			}
		}
		return nil
	})
	return rep, err
}

func (tx *Tx) recoverAttempt(id string, rep *RecoveryReport) error {
	if err := tx.recoverOperations(id, rep); err != nil {
		return err
	}
	reqs, err := tx.ids("SELECT id FROM provider_requests WHERE attempt_id = ? AND state IN (?, ?) ORDER BY created_at, id",
		id, core.SlotReserved, core.SlotDispatched)
	if err != nil {
		return err
	}
	for _, rid := range reqs {
		p, err := tx.GetProviderRequest(tx.ctx, rid)
		if err != nil {
			return err
		}
		to := core.SlotUncertain
		if p.State == core.SlotReserved {
			to = core.SlotCancelledBeforeDispatch
		}
		if _, _, err := tx.SetProviderRequestState(rid, to, nil); err != nil {
			return err
		}
		rep.ProviderRequests = append(rep.ProviderRequests, rid)
	}
	if _, _, err := tx.EndAttempt(id, core.AttemptInterrupted, "process_exited"); err != nil {
		return err
	}
	rep.Attempts = append(rep.Attempts, id)
	return nil
}

// recoverOperations marks unresolved operations unknown: of one attempt,
// or of every attempt when attemptID is "".
func (tx *Tx) recoverOperations(attemptID string, rep *RecoveryReport) error {
	query := "SELECT id FROM operations WHERE state IN (?, ?) AND (? = '' OR attempt_id = ?) ORDER BY created_at, id"
	ops, err := tx.ids(query, core.OpIntentCommitted, core.OpDispatched, attemptID, attemptID)
	if err != nil {
		return err
	}
	for _, id := range ops {
		if _, _, err := tx.SetOperationState(id, core.OpUnknown, OperationUpdate{Reason: ReasonInterrupted}); err != nil {
			return err
		}
		rep.Operations = append(rep.Operations, id)
	}
	return nil
}

func (tx *Tx) recoverTask(id string, rep *RecoveryReport) error {
	t, err := tx.GetTask(tx.ctx, id)
	if err != nil {
		return err
	}
	if t.State.CanTransition(core.TaskBlocked) {
		if _, _, err := tx.SetTaskState(id, core.TaskBlocked, ReasonInterrupted); err != nil {
			return err
		}
		rep.Tasks = append(rep.Tasks, id)
	}
	grants, err := tx.ids("SELECT id FROM permission_grants WHERE task_id = ? AND scope = ? AND state = ? ORDER BY created_at, id",
		id, core.GrantOnce, core.GrantIssued)
	if err != nil {
		return err
	}
	for _, g := range grants {
		if _, _, err := tx.SetGrantState(g, core.GrantExpired, ""); err != nil {
			return err
		}
		rep.Grants = append(rep.Grants, g)
	}
	return nil
}

// ids collects a single text column.
func (tx *Tx) ids(query string, args ...any) ([]string, error) {
	return collect(tx.ctx, tx.tx, scanString, query, args...)
}
