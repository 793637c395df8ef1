package store

import (
	"context"
	"database/sql"

	"github.com/josecorral/fluzo/lib/core"
)

// SessionSummary is a session with its sizes, for listings.
type SessionSummary struct {
	core.Session
	Tasks         int64  `json:"tasks"`
	Events        int64  `json:"events"`
	Artifacts     int64  `json:"artifacts"`
	ArtifactBytes int64  `json:"artifact_bytes"`
	LastEventAt   string `json:"last_event_at,omitempty"`
}

// ListSessionSummaries returns every session with task, event and
// artifact counts, oldest first.
func (q Queries) ListSessionSummaries(ctx context.Context) ([]SessionSummary, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (SessionSummary, error) {
		var s SessionSummary
		var created, updated string
		var last sql.NullString
		err := r.Scan(&s.ID, &s.ProjectID, &s.Title, &s.Synthetic, &created, &updated,
			&s.Tasks, &s.Events, &s.Artifacts, &s.ArtifactBytes, &last)
		s.CreatedAt, s.UpdatedAt, s.LastEventAt = parseStamp(created), parseStamp(updated), last.String
		return s, err
	}, `SELECT s.id, s.project_id, s.title, s.synthetic, s.created_at, s.updated_at,
		(SELECT count(*) FROM tasks t WHERE t.session_id = s.id),
		(SELECT count(*) FROM events e WHERE e.session_id = s.id),
		(SELECT count(*) FROM artifact_refs r WHERE r.session_id = s.id),
		(SELECT coalesce(sum(a.size), 0) FROM artifact_refs r JOIN artifacts a ON a.sha256 = r.sha256 WHERE r.session_id = s.id),
		(SELECT max(ts) FROM events e WHERE e.session_id = s.id)
		FROM sessions s ORDER BY s.created_at, s.id`)
}

// Stats counts the store's records by table plus its storage status.
type Stats struct {
	SchemaVersion int              `json:"schema_version"`
	Counts        map[string]int64 `json:"counts"`
	Storage       StorageStatus    `json:"storage"`
	Quota         Quota            `json:"quota"`
}

// statTables are the tables Stats counts, in display order.
var statTables = []string{"sessions", "tasks", "attempts", "operations", "provider_requests", "permission_grants",
	"messages", "config_snapshots", "observations", "compactions", "artifacts", "events"}

// Stats returns record counts, bytes used and quota utilisation.
func (s *Store) Stats(ctx context.Context, q Quota) (Stats, error) {
	st := Stats{Counts: map[string]int64{}, Quota: q}
	v, err := userVersion(ctx, s.db)
	if err != nil {
		return st, err
	}
	st.SchemaVersion = v
	for _, t := range statTables {
		var n int64
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM "+t).Scan(&n); err != nil {
			return st, storageErr(err, "cannot count "+t)
		}
		st.Counts[t] = n
	}
	st.Storage, err = s.Storage(ctx, q)
	return st, err
}

// StatTables lists the counted tables in display order.
func StatTables() []string { return append([]string(nil), statTables...) }
