package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Capture states of stored content (PRD §22.2: omitted, redacted or
// truncated content is marked, never silently reconstructed).
const (
	CaptureFull      = "full"
	CaptureTruncated = "truncated"
	CaptureRedacted  = "redacted"
	CaptureOmitted   = "omitted"
)

// Message is one conversation message of a session. Large content lives
// in an artifact (Artifact = its sha256).
type Message struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session"`
	TaskID    string    `json:"task,omitempty"`
	AttemptID string    `json:"attempt,omitempty"`
	Role      string    `json:"role"`
	Content   string    `json:"content,omitempty"`
	Artifact  string    `json:"artifact,omitempty"`
	Capture   string    `json:"capture"`
	CreatedAt time.Time `json:"created_at"`
}

// AddMessage stores a message and appends a "message" event that names
// it (the content stays in the messages table).
func (tx *Tx) AddMessage(m *Message) (core.Event, error) {
	if m.ID == "" {
		m.ID = core.NewID(core.KindMessage)
	}
	if m.Capture == "" {
		m.Capture = CaptureFull
	}
	m.CreatedAt = tx.now
	_, err := tx.q.ExecContext(tx.ctx, `INSERT INTO messages (id, session_id, task_id, attempt_id, role, content, artifact, capture, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.ID, m.SessionID, m.TaskID, m.AttemptID, m.Role, m.Content, m.Artifact, m.Capture, stamp(m.CreatedAt))
	if err != nil {
		return core.Event{}, fkErr(err, "cannot store message", "session", m.SessionID)
	}
	return tx.event(core.Event{Type: core.EvMessage, Session: m.SessionID, Task: m.TaskID, Attempt: m.AttemptID},
		map[string]any{"message": m.ID, "role": m.Role, "capture": m.Capture, "bytes": len(m.Content), "artifact": m.Artifact})
}

// ListMessages pages a session's messages by ID (IDs are time-ordered):
// messages after afterID ("" = from the start), at most limit.
func (q Queries) ListMessages(ctx context.Context, sessionID, afterID string, limit int) ([]Message, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (Message, error) {
		var m Message
		var created string
		err := r.Scan(&m.ID, &m.SessionID, &m.TaskID, &m.AttemptID, &m.Role, &m.Content, &m.Artifact, &m.Capture, &created)
		m.CreatedAt = parseStamp(created)
		return m, err
	}, `SELECT id, session_id, task_id, attempt_id, role, content, artifact, capture, created_at FROM messages
		WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?`, sessionID, afterID, pageLimit(limit))
}

// ConfigSnapshot is the effective configuration an attempt ran with.
type ConfigSnapshot struct {
	ID          string    `json:"id"`
	SessionID   string    `json:"session"`
	AttemptID   string    `json:"attempt,omitempty"`
	Fingerprint string    `json:"fingerprint"`
	Body        string    `json:"body"`
	CreatedAt   time.Time `json:"created_at"`
	// Sandbox is the effective command sandbox, recorded in the event
	// (not the table): what the configuration resolved to on this machine.
	Sandbox json.RawMessage `json:"-"`
}

// SaveConfigSnapshot stores an effective configuration (no credentials)
// and appends config.snapshot.
func (tx *Tx) SaveConfigSnapshot(c *ConfigSnapshot) (core.Event, error) {
	if c.ID == "" {
		c.ID = core.NewID("cfg")
	}
	c.CreatedAt = tx.now
	_, err := tx.q.ExecContext(tx.ctx, `INSERT INTO config_snapshots (id, session_id, attempt_id, fingerprint, body, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, c.ID, c.SessionID, c.AttemptID, c.Fingerprint, c.Body, stamp(c.CreatedAt))
	if err != nil {
		return core.Event{}, fkErr(err, "cannot store config snapshot", "session", c.SessionID)
	}
	data := map[string]any{"snapshot": c.ID, "fingerprint": c.Fingerprint}
	if len(c.Sandbox) > 0 {
		data["sandbox"] = c.Sandbox
	}
	return tx.event(core.Event{Type: core.EvConfigSnapshot, Session: c.SessionID, Attempt: c.AttemptID}, data)
}

// ListConfigSnapshots returns a session's configuration snapshots.
func (q Queries) ListConfigSnapshots(ctx context.Context, sessionID string) ([]ConfigSnapshot, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (ConfigSnapshot, error) {
		var c ConfigSnapshot
		var created string
		err := r.Scan(&c.ID, &c.SessionID, &c.AttemptID, &c.Fingerprint, &c.Body, &created)
		c.CreatedAt = parseStamp(created)
		return c, err
	}, "SELECT id, session_id, attempt_id, fingerprint, body, created_at FROM config_snapshots WHERE session_id = ? ORDER BY id", sessionID)
}

// Observation is a Laya evaluation record: stored and shown, never used
// to authorize, route or block anything.
type Observation struct {
	ID        string          `json:"id"`
	SessionID string          `json:"session"`
	TaskID    string          `json:"task,omitempty"`
	AttemptID string          `json:"attempt,omitempty"`
	Kind      string          `json:"kind"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// AddObservation stores an observation and appends laya.observation.
func (tx *Tx) AddObservation(o *Observation) (core.Event, error) {
	if o.ID == "" {
		o.ID = core.NewID(core.KindObserve)
	}
	if len(o.Data) == 0 {
		o.Data = json.RawMessage("{}")
	}
	if !json.Valid(o.Data) {
		return core.Event{}, core.Errorf(core.CodeInvalidRequest, "observation data is not valid JSON")
	}
	o.CreatedAt = tx.now
	_, err := tx.q.ExecContext(tx.ctx, `INSERT INTO observations (id, session_id, task_id, attempt_id, kind, data, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, o.ID, o.SessionID, o.TaskID, o.AttemptID, o.Kind, string(o.Data), stamp(o.CreatedAt))
	if err != nil {
		return core.Event{}, fkErr(err, "cannot store observation", "session", o.SessionID)
	}
	return tx.event(core.Event{Type: core.EvObservation, Session: o.SessionID, Task: o.TaskID, Attempt: o.AttemptID},
		map[string]any{"observation": o.ID, "kind": o.Kind})
}

// ListObservations returns a session's observations in order.
func (q Queries) ListObservations(ctx context.Context, sessionID string) ([]Observation, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (Observation, error) {
		var o Observation
		var data, created string
		err := r.Scan(&o.ID, &o.SessionID, &o.TaskID, &o.AttemptID, &o.Kind, &data, &created)
		o.Data, o.CreatedAt = json.RawMessage(data), parseStamp(created)
		return o, err
	}, "SELECT id, session_id, task_id, attempt_id, kind, data, created_at FROM observations WHERE session_id = ? ORDER BY id", sessionID)
}

// Compaction records one context compaction; unknown token counts stay nil.
type Compaction struct {
	ID           string    `json:"id"`
	SessionID    string    `json:"session"`
	TaskID       string    `json:"task,omitempty"`
	AttemptID    string    `json:"attempt,omitempty"`
	BeforeTokens *int64    `json:"before_tokens"`
	AfterTokens  *int64    `json:"after_tokens"`
	Summary      string    `json:"summary,omitempty"`
	Artifact     string    `json:"artifact,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
}

// AddCompaction stores a compaction and appends a "compaction" event.
func (tx *Tx) AddCompaction(c *Compaction) (core.Event, error) {
	if c.ID == "" {
		c.ID = core.NewID("cmp")
	}
	c.CreatedAt = tx.now
	_, err := tx.q.ExecContext(tx.ctx, `INSERT INTO compactions (id, session_id, task_id, attempt_id, before_tokens, after_tokens, summary, artifact, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.SessionID, c.TaskID, c.AttemptID,
		intOrNull(c.BeforeTokens), intOrNull(c.AfterTokens), c.Summary, c.Artifact, stamp(c.CreatedAt))
	if err != nil {
		return core.Event{}, fkErr(err, "cannot store compaction", "session", c.SessionID)
	}
	return tx.event(core.Event{Type: core.EvCompaction, Session: c.SessionID, Task: c.TaskID, Attempt: c.AttemptID},
		map[string]any{"compaction": c.ID, "before_tokens": c.BeforeTokens, "after_tokens": c.AfterTokens, "artifact": c.Artifact})
}

// ListCompactions returns a session's compactions in order.
func (q Queries) ListCompactions(ctx context.Context, sessionID string) ([]Compaction, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (Compaction, error) {
		var c Compaction
		var before, after sql.NullInt64
		var created string
		err := r.Scan(&c.ID, &c.SessionID, &c.TaskID, &c.AttemptID, &before, &after, &c.Summary, &c.Artifact, &created)
		c.BeforeTokens, c.AfterTokens, c.CreatedAt = nullInt(before), nullInt(after), parseStamp(created)
		return c, err
	}, "SELECT id, session_id, task_id, attempt_id, before_tokens, after_tokens, summary, artifact, created_at FROM compactions WHERE session_id = ? ORDER BY id", sessionID)
}
