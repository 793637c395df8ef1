package store

import (
	"context"
	"database/sql"

	"github.com/josecorral/fluzo/lib/core"
)

const attemptCols = "id, task_id, number, state, reason, trace_id, previous_id, started_at, ended_at"

func scanAttempt(r interface{ Scan(...any) error }) (core.Attempt, error) {
	var a core.Attempt
	var prev, ended sql.NullString
	var started string
	err := r.Scan(&a.ID, &a.TaskID, &a.Number, &a.State, &a.Reason, &a.TraceID, &prev, &started, &ended)
	a.PreviousID, a.StartedAt, a.EndedAt = prev.String, parseStamp(started), nullTime(ended)
	return a, err
}

// StartAttempt stores a new running attempt of a task, numbered after the
// task's previous attempts, and appends attempt.started. Set PreviousID
// when resuming, TraceID for the attempt's trace.
func (tx *Tx) StartAttempt(a *core.Attempt) (core.Event, error) {
	t, err := tx.GetTask(tx.ctx, a.TaskID)
	if err != nil {
		return core.Event{}, err
	}
	if a.ID == "" {
		a.ID = core.NewID(core.KindAttempt)
	}
	if err := tx.q.QueryRowContext(tx.ctx, "SELECT coalesce(max(number), 0) + 1 FROM attempts WHERE task_id = ?", a.TaskID).Scan(&a.Number); err != nil {
		return core.Event{}, storageErr(err, "cannot number the attempt")
	}
	a.State, a.StartedAt, a.EndedAt = core.AttemptRunning, tx.now, nil
	_, err = tx.q.ExecContext(tx.ctx, "INSERT INTO attempts ("+attemptCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		a.ID, a.TaskID, a.Number, a.State, a.Reason, a.TraceID, nullable(a.PreviousID), stamp(a.StartedAt), nil)
	if err != nil {
		return core.Event{}, fkErr(err, "cannot create attempt", "attempt", a.PreviousID)
	}
	return tx.event(core.Event{Type: core.EvAttemptStarted, Session: t.SessionID, Task: t.ID, Attempt: a.ID, Trace: a.TraceID},
		map[string]any{"number": a.Number, "previous": a.PreviousID})
}

// EndAttempt records an attempt's single outcome (completed, failed,
// cancelled, interrupted) and appends attempt.ended.
func (tx *Tx) EndAttempt(id string, to core.AttemptState, reason string) (core.Attempt, core.Event, error) {
	a, err := tx.GetAttempt(tx.ctx, id)
	if err != nil {
		return a, core.Event{}, err
	}
	if err := a.State.Transition(to); err != nil {
		return a, core.Event{}, core.AsError(err).With("attempt", id)
	}
	now := tx.now
	a.State, a.Reason, a.EndedAt = to, reason, &now
	_, err = tx.q.ExecContext(tx.ctx, "UPDATE attempts SET state = ?, reason = ?, ended_at = ? WHERE id = ?",
		a.State, a.Reason, stamp(now), id)
	if err != nil {
		return a, core.Event{}, storageErr(err, "cannot update attempt "+id)
	}
	session, err := tx.sessionOfTask(a.TaskID)
	if err != nil {
		return a, core.Event{}, err
	}
	ev, err := tx.event(core.Event{Type: core.EvAttemptEnded, Session: session, Task: a.TaskID, Attempt: id, Trace: a.TraceID},
		map[string]any{"state": to, "reason": reason})
	return a, ev, err
}

// GetAttempt returns one attempt or not_found.
func (q Queries) GetAttempt(ctx context.Context, id string) (core.Attempt, error) {
	a, err := scanAttempt(q.q.QueryRowContext(ctx, "SELECT "+attemptCols+" FROM attempts WHERE id = ?", id))
	return a, scanOne(err, "attempt", id)
}

// ListAttempts returns a task's attempts in order.
func (q Queries) ListAttempts(ctx context.Context, taskID string) ([]core.Attempt, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (core.Attempt, error) { return scanAttempt(r) },
		"SELECT "+attemptCols+" FROM attempts WHERE task_id = ? ORDER BY number", taskID)
}

func (tx *Tx) sessionOfTask(taskID string) (string, error) {
	var s string
	err := tx.q.QueryRowContext(tx.ctx, "SELECT session_id FROM tasks WHERE id = ?", taskID).Scan(&s)
	return s, scanOne(err, "task", taskID)
}

// scopeOfAttempt returns the session and task an attempt belongs to.
// They never change, so a committed answer is kept (every operation and
// provider request transition asks; a turn would otherwise pay the join
// four times). The store's cache is read and filled under writeMu, which
// every Tx holds; what this Tx learns joins it only at commit.
func (tx *Tx) scopeOfAttempt(attemptID string) (session, task string, err error) {
	if sc, ok := tx.store.scopes[attemptID]; ok {
		return sc.session, sc.task, nil
	}
	if sc, ok := tx.scopes[attemptID]; ok {
		return sc.session, sc.task, nil
	}
	err = tx.q.QueryRowContext(tx.ctx,
		"SELECT t.session_id, t.id FROM attempts a JOIN tasks t ON t.id = a.task_id WHERE a.id = ?", attemptID).Scan(&session, &task)
	if err == nil {
		if tx.scopes == nil {
			tx.scopes = map[string]attemptScope{}
		}
		tx.scopes[attemptID] = attemptScope{session, task}
	}
	return session, task, scanOne(err, "attempt", attemptID)
}

// attemptScope is the session and task of an attempt.
type attemptScope struct{ session, task string }

// maxCachedScopes bounds the scope cache of a long-lived owner.
const maxCachedScopes = 1024

// keepScopes adds a committed transaction's lookups to the store's cache.
func (s *Store) keepScopes(learned map[string]attemptScope) {
	if len(learned) == 0 {
		return
	}
	if s.scopes == nil || len(s.scopes)+len(learned) > maxCachedScopes {
		s.scopes = map[string]attemptScope{}
	}
	for id, sc := range learned {
		s.scopes[id] = sc
	}
}
