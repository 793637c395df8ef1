package store

import (
	"context"
	"database/sql"

	"github.com/josecorral/fluzo/lib/core"
)

// PurgeSelect chooses what a purge deletes: one session, or All sessions
// of this repository's store (never another repository).
type PurgeSelect struct {
	Session string
	All     bool
}

// PurgeSession describes one selected session.
type PurgeSession struct {
	ID        string `json:"id"`
	Title     string `json:"title,omitempty"`
	Synthetic bool   `json:"synthetic,omitempty"`
	Tasks     int    `json:"tasks"`
	Events    int    `json:"events"`
	// Refused is set when the session cannot be purged now.
	Refused string `json:"refused,omitempty"`
}

// PurgePlan is exactly what a purge would delete. Shared artifacts are
// referenced by a session that stays and are kept.
type PurgePlan struct {
	Repository    string         `json:"repository"`
	Drive         string         `json:"drive"`
	OwnerActive   bool           `json:"owner_active"`
	Sessions      []PurgeSession `json:"sessions"`
	Missing       []string       `json:"missing,omitempty"`
	Artifacts     []string       `json:"artifacts"`
	ArtifactBytes int64          `json:"artifact_bytes"`
	Shared        []string       `json:"shared_artifacts"`
	// PendingFiles counts artifact files left by an interrupted purge that
	// this purge will finish removing.
	PendingFiles int `json:"pending_files"`
	// Labels counts the eval labels of the purged sessions' observations:
	// a label is about history that goes, so it goes with it.
	Labels int `json:"eval_labels"`
}

// Deletes reports whether the plan would delete anything.
func (p PurgePlan) Deletes() bool {
	for _, s := range p.Sessions {
		if s.Refused == "" {
			return true
		}
	}
	return p.PendingFiles > 0
}

// Refused lists the sessions that cannot be purged now.
func (p PurgePlan) Refused() []PurgeSession {
	var out []PurgeSession
	for _, s := range p.Sessions {
		if s.Refused != "" {
			out = append(out, s)
		}
	}
	return out
}

// PurgeResult reports what a purge did. Failed lists artifact files that
// could not be removed; a later purge retries them.
type PurgeResult struct {
	Plan         PurgePlan `json:"plan"`
	Sessions     []string  `json:"sessions"`
	FilesRemoved int       `json:"files_removed"`
	Failed       []string  `json:"failed,omitempty"`
	// LabelsRemoved counts the eval labels removed because their
	// observation is no longer stored (this purge's, or an earlier
	// interrupted one's).
	LabelsRemoved int `json:"eval_labels_removed"`
}

// ReasonActive is why an active session is refused.
const ReasonActive = "active: the workspace owner is running and the session has unfinished work"

// PlanPurge computes what a purge of sel would delete, changing nothing
// (this is the dry run). It works on a read-only store.
func (s *Store) PlanPurge(ctx context.Context, sel PurgeSelect) (PurgePlan, error) {
	owner, err := OwnerActive(s.ws)
	if err != nil {
		return PurgePlan{}, err
	}
	return planPurge(ctx, s.Queries, s.ws, sel, owner)
}

func planPurge(ctx context.Context, q Queries, ws Workspace, sel PurgeSelect, owner bool) (PurgePlan, error) {
	plan := PurgePlan{Repository: ws.Root, Drive: ws.Drive(), OwnerActive: owner, Artifacts: []string{}, Shared: []string{}}
	var ids []string
	if sel.All {
		all, err := q.ListSessions(ctx)
		if err != nil {
			return plan, err
		}
		for _, ses := range all {
			ids = append(ids, ses.ID)
		}
	} else if sel.Session != "" {
		ids = []string{sel.Session}
	} else {
		return plan, core.Errorf(core.CodeUsage, "choose what to purge: a session or all").
			WithHint("pass --session ID or --all")
	}
	for _, id := range ids {
		ses, err := q.GetSession(ctx, id)
		if core.CodeOf(err) == core.CodeNotFound {
			plan.Missing = append(plan.Missing, id)
			continue
		}
		if err != nil {
			return plan, err
		}
		ps, err := describeForPurge(ctx, q, ses, owner)
		if err != nil {
			return plan, err
		}
		plan.Sessions = append(plan.Sessions, ps)
	}
	if err := planArtifacts(ctx, q, &plan); err != nil {
		return plan, err
	}
	if err := q.q.QueryRowContext(ctx, "SELECT count(*) FROM artifact_tombstones").Scan(&plan.PendingFiles); err != nil {
		return plan, storageErr(err, "cannot read pending artifact deletions")
	}
	return plan, planLabels(ctx, q, ws, &plan)
}

// planLabels counts the labels of the purged sessions' observations.
func planLabels(ctx context.Context, q Queries, ws Workspace, plan *PurgePlan) error {
	lines, err := ReadEvalLabels(ws)
	if err != nil || len(lines) == 0 {
		return err
	}
	going := map[string]bool{}
	for _, ps := range plan.Sessions {
		if ps.Refused != "" {
			continue
		}
		ids, err := collect(ctx, q.q, scanString, "SELECT id FROM observations WHERE session_id = ?", ps.ID)
		if err != nil {
			return storageErr(err, "cannot list the observations of session "+ps.ID)
		}
		for _, id := range ids {
			going[id] = true
		}
	}
	for _, l := range lines {
		if going[labelObservation(l)] {
			plan.Labels++
		}
	}
	return nil
}

func describeForPurge(ctx context.Context, q Queries, ses core.Session, owner bool) (PurgeSession, error) {
	ps := PurgeSession{ID: ses.ID, Title: ses.Title, Synthetic: ses.Synthetic}
	var unfinished int
	err := q.q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM tasks WHERE session_id = ?1),
		(SELECT count(*) FROM events WHERE session_id = ?1),
		(SELECT count(*) FROM tasks WHERE session_id = ?1 AND state NOT IN ('completed', 'failed', 'cancelled'))
		+ (SELECT count(*) FROM attempts a JOIN tasks t ON t.id = a.task_id WHERE t.session_id = ?1 AND a.state = 'running')`,
		ses.ID).Scan(&ps.Tasks, &ps.Events, &unfinished)
	if err != nil {
		return ps, storageErr(err, "cannot describe session "+ses.ID)
	}
	// With the owner running, a session with unfinished work (or none yet:
	// it may have just been created) is attached to it.
	if owner && (unfinished > 0 || ps.Tasks == 0) {
		ps.Refused = ReasonActive
	}
	return ps, nil
}

// planArtifacts splits the purged sessions' artifacts into exclusively
// owned (deleted) and shared with a surviving session (kept).
func planArtifacts(ctx context.Context, q Queries, plan *PurgePlan) error {
	purged := map[string]bool{}
	for _, ps := range plan.Sessions {
		if ps.Refused == "" {
			purged[ps.ID] = true
		}
	}
	seen := map[string]bool{}
	for id := range purged {
		refs, err := q.ListArtifacts(ctx, id)
		if err != nil {
			return err
		}
		for _, a := range refs {
			if seen[a.SHA256] {
				continue
			}
			seen[a.SHA256] = true
			owners, err := collect(ctx, q.q, scanString, "SELECT session_id FROM artifact_refs WHERE sha256 = ?", a.SHA256)
			if err != nil {
				return err
			}
			shared := false
			for _, o := range owners {
				shared = shared || !purged[o]
			}
			if shared {
				plan.Shared = append(plan.Shared, a.SHA256)
			} else {
				plan.Artifacts = append(plan.Artifacts, a.SHA256)
				plan.ArtifactBytes += a.Size
			}
		}
	}
	return nil
}

// Purge deletes what PlanPurge selects, re-planning inside the write
// transaction so the refusal of active sessions cannot race. Session
// records go first (one transaction, artifacts queued as tombstones);
// files are removed afterwards under the write lock, and leftovers from an
// interrupted purge are retried, so Purge is idempotent. Last, the eval
// labels of observations no longer stored are removed from the label log
// (labels describe purged history; an interrupted purge's are caught by
// the next one).
func (s *Store) Purge(ctx context.Context, sel PurgeSelect) (PurgeResult, error) {
	var res PurgeResult
	owner, err := OwnerActive(s.ws)
	if err != nil {
		return res, err
	}
	err = s.Write(ctx, func(tx *Tx) error {
		plan, err := planPurge(ctx, tx.Queries, s.ws, sel, owner)
		if err != nil {
			return err
		}
		res = PurgeResult{Plan: plan, Sessions: []string{}}
		for _, sha := range plan.Artifacts {
			if _, err := tx.q.ExecContext(ctx, "INSERT OR IGNORE INTO artifact_tombstones (sha256) VALUES (?)", sha); err != nil {
				return storageErr(err, "cannot queue artifact deletion")
			}
		}
		// Deleted sessions take their attempts with them: forget their
		// cached scopes (under writeMu, like every use of the cache).
		tx.store.scopes = nil
		for _, ps := range plan.Sessions {
			if ps.Refused != "" {
				continue
			}
			if _, err := tx.q.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", ps.ID); err != nil {
				return storageErr(err, "cannot delete session "+ps.ID)
			}
			res.Sessions = append(res.Sessions, ps.ID)
		}
		for _, sha := range plan.Artifacts {
			if _, err := tx.q.ExecContext(ctx, "DELETE FROM artifacts WHERE sha256 = ? AND NOT EXISTS (SELECT 1 FROM artifact_refs WHERE sha256 = ?)", sha, sha); err != nil {
				return storageErr(err, "cannot delete artifact record "+sha)
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	if err := s.removeTombstoned(ctx, &res); err != nil {
		return res, err
	}
	res.LabelsRemoved, err = pruneLabels(s.ws, func() (map[string]bool, error) { return s.observationIDs(ctx) })
	return res, err
}

// removeTombstoned deletes queued artifact files while holding the write
// lock, skipping any artifact that was referenced again meanwhile.
func (s *Store) removeTombstoned(ctx context.Context, res *PurgeResult) error {
	return s.Write(ctx, func(tx *Tx) error {
		shas, err := tx.ids("SELECT sha256 FROM artifact_tombstones ORDER BY sha256")
		if err != nil {
			return err
		}
		for _, sha := range shas {
			var live int
			if err := tx.q.QueryRowContext(ctx, "SELECT count(*) FROM artifacts WHERE sha256 = ?", sha).Scan(&live); err != nil {
				return storageErr(err, "cannot check artifact "+sha)
			}
			if live == 0 && validSHA(sha) {
				removed, err := removeArtifactFile(s.ws, sha)
				if err != nil {
					res.Failed = append(res.Failed, sha)
					continue
				}
				if removed {
					res.FilesRemoved++
				}
			}
			if _, err := tx.q.ExecContext(ctx, "DELETE FROM artifact_tombstones WHERE sha256 = ?", sha); err != nil {
				return storageErr(err, "cannot clear artifact tombstone")
			}
		}
		return nil
	})
}

func scanString(r *sql.Rows) (string, error) {
	var s string
	return s, r.Scan(&s)
}
