package store

import (
	"context"
	"database/sql"

	"github.com/josecorral/fluzo/lib/core"
)

const taskCols = "id, session_id, request, state, reason, verify, created_at, updated_at"

func scanTask(r interface{ Scan(...any) error }) (core.Task, error) {
	var t core.Task
	var created, updated string
	err := r.Scan(&t.ID, &t.SessionID, &t.Request, &t.State, &t.Reason, &t.Verify, &created, &updated)
	t.CreatedAt, t.UpdatedAt = parseStamp(created), parseStamp(updated)
	return t, err
}

// CreateTask stores a new task (state pending unless set) in an existing
// session and appends task.created.
func (tx *Tx) CreateTask(t *core.Task) (core.Event, error) {
	if t.ID == "" {
		t.ID = core.NewID(core.KindTask)
	}
	if t.State == "" {
		t.State = core.TaskPending
	}
	if !t.State.Valid() {
		return core.Event{}, core.Errorf(core.CodeInvalidRequest, "unknown task state %q", t.State)
	}
	t.CreatedAt, t.UpdatedAt = tx.now, tx.now
	_, err := tx.q.ExecContext(tx.ctx, "INSERT INTO tasks ("+taskCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		t.ID, t.SessionID, t.Request, t.State, t.Reason, t.Verify, stamp(t.CreatedAt), stamp(t.UpdatedAt))
	if err != nil {
		return core.Event{}, fkErr(err, "cannot create task", "session", t.SessionID)
	}
	if err := tx.touchSession(t.SessionID); err != nil {
		return core.Event{}, storageErr(err, "cannot update session")
	}
	return tx.event(core.Event{Type: core.EvTaskCreated, Session: t.SessionID, Task: t.ID},
		map[string]any{"state": t.State, "request": t.Request, "verify": t.Verify})
}

// SetTaskState moves a task to a new state, validated by
// core.TaskState.Transition, and appends task.state. reason is
// machine-readable (e.g. "interrupted", "budget_exhausted").
func (tx *Tx) SetTaskState(id string, to core.TaskState, reason string) (core.Task, core.Event, error) {
	t, err := tx.GetTask(tx.ctx, id)
	if err != nil {
		return t, core.Event{}, err
	}
	if err := t.State.Transition(to); err != nil {
		return t, core.Event{}, core.AsError(err).With("task", id)
	}
	from := t.State
	t.State, t.Reason, t.UpdatedAt = to, reason, tx.now
	_, err = tx.q.ExecContext(tx.ctx, "UPDATE tasks SET state = ?, reason = ?, updated_at = ? WHERE id = ?",
		t.State, t.Reason, stamp(t.UpdatedAt), id)
	if err != nil {
		return t, core.Event{}, storageErr(err, "cannot update task "+id)
	}
	if err := tx.touchSession(t.SessionID); err != nil {
		return t, core.Event{}, storageErr(err, "cannot update session")
	}
	ev, err := tx.event(core.Event{Type: core.EvTaskState, Session: t.SessionID, Task: id},
		map[string]any{"from": from, "to": to, "reason": reason})
	if err == nil && to.Terminal() {
		err = tx.expireTaskGrants(id, string(to))
	}
	return t, ev, err
}

// GetTask returns one task or not_found.
func (q Queries) GetTask(ctx context.Context, id string) (core.Task, error) {
	t, err := scanTask(q.q.QueryRowContext(ctx, "SELECT "+taskCols+" FROM tasks WHERE id = ?", id))
	return t, scanOne(err, "task", id)
}

// ListTasks returns the tasks of one session ("" = all), oldest first.
func (q Queries) ListTasks(ctx context.Context, sessionID string) ([]core.Task, error) {
	scan := func(r *sql.Rows) (core.Task, error) { return scanTask(r) }
	if sessionID == "" {
		return collect(ctx, q.q, scan, "SELECT "+taskCols+" FROM tasks ORDER BY created_at, id")
	}
	return collect(ctx, q.q, scan, "SELECT "+taskCols+" FROM tasks WHERE session_id = ? ORDER BY created_at, id", sessionID)
}
