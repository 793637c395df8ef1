package store

import (
	"context"
	"database/sql"

	"github.com/josecorral/fluzo/lib/core"
)

const sessionCols = "id, project_id, title, synthetic, created_at, updated_at"

func scanSession(r interface{ Scan(...any) error }) (core.Session, error) {
	var s core.Session
	var created, updated string
	err := r.Scan(&s.ID, &s.ProjectID, &s.Title, &s.Synthetic, &created, &updated)
	s.CreatedAt, s.UpdatedAt = parseStamp(created), parseStamp(updated)
	return s, err
}

// CreateSession stores a new session of this workspace's project (ID and
// timestamps are filled when empty) and appends session.created.
func (tx *Tx) CreateSession(s *core.Session) (core.Event, error) {
	if s.ID == "" {
		s.ID = core.NewID(core.KindSession)
	}
	s.ProjectID = tx.store.project.ID
	s.CreatedAt, s.UpdatedAt = tx.now, tx.now
	_, err := tx.q.ExecContext(tx.ctx, "INSERT INTO sessions ("+sessionCols+") VALUES (?, ?, ?, ?, ?, ?)",
		s.ID, s.ProjectID, s.Title, s.Synthetic, stamp(s.CreatedAt), stamp(s.UpdatedAt))
	if err != nil {
		return core.Event{}, storageErr(err, "cannot create session")
	}
	return tx.event(core.Event{Type: core.EvSessionCreated, Session: s.ID},
		map[string]any{"title": s.Title, "synthetic": s.Synthetic, "project": s.ProjectID})
}

// touchSession bumps a session's updated_at.
func (tx *Tx) touchSession(id string) error {
	if id == "" {
		return nil
	}
	_, err := tx.q.ExecContext(tx.ctx, "UPDATE sessions SET updated_at = ? WHERE id = ?", stamp(tx.now), id)
	return err
}

// GetSession returns one session or not_found.
func (q Queries) GetSession(ctx context.Context, id string) (core.Session, error) {
	s, err := scanSession(q.q.QueryRowContext(ctx, "SELECT "+sessionCols+" FROM sessions WHERE id = ?", id))
	return s, scanOne(err, "session", id)
}

// ListSessions returns every session, oldest first.
func (q Queries) ListSessions(ctx context.Context) ([]core.Session, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (core.Session, error) { return scanSession(r) },
		"SELECT "+sessionCols+" FROM sessions ORDER BY created_at, id")
}
