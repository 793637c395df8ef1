package store

import (
	"context"
	"database/sql"

	"github.com/josecorral/fluzo/lib/core"
)

const grantCols = "id, task_id, scope, spec, state, source, created_at, ended_at"

func scanGrant(r interface{ Scan(...any) error }) (core.Grant, error) {
	var g core.Grant
	var task, ended sql.NullString
	var created string
	err := r.Scan(&g.ID, &task, &g.Scope, &g.Spec, &g.State, &g.Source, &created, &ended)
	g.TaskID, g.CreatedAt, g.EndedAt = task.String, parseStamp(created), nullTime(ended)
	return g, err
}

func grantEventType(s core.GrantState) string {
	switch s {
	case core.GrantConsumed:
		return core.EvGrantConsumed
	case core.GrantExpired:
		return core.EvGrantExpired
	case core.GrantRevoked:
		return core.EvGrantRevoked
	default:
		return core.EvGrantIssued
	}
}

// IssueGrant stores an issued permission grant and appends grant.issued.
// TaskID is required for once and task scopes.
func (tx *Tx) IssueGrant(g *core.Grant) (core.Event, error) {
	if g.ID == "" {
		g.ID = core.NewID(core.KindGrant)
	}
	if g.Scope != core.GrantStanding && g.TaskID == "" {
		return core.Event{}, core.Errorf(core.CodeInvalidRequest, "a %s grant needs a task", g.Scope).
			WithHint("set Grant.TaskID; only standing grants come without a task")
	}
	g.State, g.CreatedAt, g.EndedAt = core.GrantIssued, tx.now, nil
	_, err := tx.q.ExecContext(tx.ctx, "INSERT INTO permission_grants ("+grantCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		g.ID, nullable(g.TaskID), g.Scope, g.Spec, g.State, g.Source, stamp(g.CreatedAt), nil)
	if err != nil {
		return core.Event{}, fkErr(err, "cannot store grant", "task", g.TaskID)
	}
	return tx.grantEvent(*g, "")
}

// SetGrantState consumes, expires or revokes a grant (core.GrantState
// Transition) and appends grant.consumed/expired/revoked. A once grant is
// consumed in the same Write as the operation intent it authorizes.
func (tx *Tx) SetGrantState(id string, to core.GrantState, operationID string) (core.Grant, core.Event, error) {
	g, err := tx.GetGrant(tx.ctx, id)
	if err != nil {
		return g, core.Event{}, err
	}
	if err := g.State.Transition(to); err != nil {
		return g, core.Event{}, core.AsError(err).With("grant", id)
	}
	// A task or standing grant covers every matching operation while it
	// lasts; only a once grant is used up by one.
	if to == core.GrantConsumed && g.Scope != core.GrantOnce {
		return g, core.Event{}, core.Errorf(core.CodeIllegalTransition, "grant %s is a %s grant; only once grants are consumed", id, g.Scope).
			With("grant", id).WithHint("a task grant ends with its task or when revoked")
	}
	now := tx.now
	g.State, g.EndedAt = to, &now
	if _, err := tx.q.ExecContext(tx.ctx, "UPDATE permission_grants SET state = ?, ended_at = ? WHERE id = ?", g.State, stamp(now), id); err != nil {
		return g, core.Event{}, storageErr(err, "cannot update grant "+id)
	}
	ev, err := tx.grantEvent(g, operationID)
	return g, ev, err
}

// expireTaskGrants ends every grant still issued to a task that has just
// reached a terminal state (completed, cancelled), each with a grant.expired audit
// event in the same transaction: a grant never outlives its task.
func (tx *Tx) expireTaskGrants(taskID, reason string) error {
	ids, err := tx.ids("SELECT id FROM permission_grants WHERE task_id = ? AND state = ? ORDER BY created_at, id",
		taskID, core.GrantIssued)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	session, err := tx.sessionOfTask(taskID)
	if err != nil {
		return err
	}
	now := tx.now
	for _, id := range ids {
		g, err := tx.GetGrant(tx.ctx, id)
		if err != nil {
			return err
		}
		g.State, g.EndedAt = core.GrantExpired, &now
		if _, err := tx.q.ExecContext(tx.ctx, "UPDATE permission_grants SET state = ?, ended_at = ? WHERE id = ?", g.State, stamp(now), id); err != nil {
			return storageErr(err, "cannot expire grant "+id)
		}
		if _, err := tx.event(core.Event{Type: core.EvGrantExpired, Session: session, Task: taskID},
			map[string]any{"grant": g.ID, "scope": g.Scope, "spec": g.Spec, "state": g.State, "source": g.Source, "reason": "task " + reason}); err != nil {
			return err
		}
	}
	return nil
}

func (tx *Tx) grantEvent(g core.Grant, operationID string) (core.Event, error) {
	session := ""
	if g.TaskID != "" {
		var err error
		if session, err = tx.sessionOfTask(g.TaskID); err != nil {
			return core.Event{}, err
		}
	}
	return tx.event(core.Event{Type: grantEventType(g.State), Session: session, Task: g.TaskID, Operation: operationID},
		map[string]any{"grant": g.ID, "scope": g.Scope, "spec": g.Spec, "state": g.State, "source": g.Source})
}

// GetGrant returns one grant or not_found.
func (q Queries) GetGrant(ctx context.Context, id string) (core.Grant, error) {
	g, err := scanGrant(q.q.QueryRowContext(ctx, "SELECT "+grantCols+" FROM permission_grants WHERE id = ?", id))
	return g, scanOne(err, "grant", id)
}

// ListGrants returns a task's grants ("" = standing grants) in order.
func (q Queries) ListGrants(ctx context.Context, taskID string) ([]core.Grant, error) {
	scan := func(r *sql.Rows) (core.Grant, error) { return scanGrant(r) }
	if taskID == "" {
		return collect(ctx, q.q, scan, "SELECT "+grantCols+" FROM permission_grants WHERE task_id IS NULL ORDER BY created_at, id")
	}
	return collect(ctx, q.q, scan, "SELECT "+grantCols+" FROM permission_grants WHERE task_id = ? ORDER BY created_at, id", taskID)
}
