package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// TimeFormat is how timestamps are stored: RFC 3339 UTC with fixed-width
// nanoseconds so that text order is time order.
const TimeFormat = "2006-01-02T15:04:05.000000000Z07:00"

func stamp(t time.Time) string { return t.UTC().Format(TimeFormat) }

func parseStamp(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t.UTC()
}

// querier is what both *sql.DB and *sql.Tx offer; read queries are written
// once against it.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// EventMeta carries correlation fields copied into every event a Tx
// appends on the caller's behalf (fields the event already sets win).
type EventMeta struct {
	Corr  string
	Cause string
	Trace string
	Span  string
}

// Tx is one write transaction (BEGIN IMMEDIATE). Every state change made
// through it appends its event in the same transaction, so a committed
// state change always has its event and a rolled-back one never does.
type Tx struct {
	Queries
	store *Store
	ctx   context.Context
	tx    *sql.Tx
	now   time.Time
	Meta  EventMeta
	// next caches the next seq per session ("" = sessionless) for batches.
	next    map[string]int64
	nowText string
	// bound are the store's prepared statements bound to this
	// transaction (closed with it).
	bound map[string]*sql.Stmt
	// scopes are attempt scopes looked up in this transaction.
	scopes map[string]attemptScope
	// ops are the operation rows this transaction wrote, as written: only
	// CreateOperation and SetOperationState write them, so a later
	// transition in the same transaction (a tool call's decision after
	// its creation, its outcome after its dispatch marker) starts from
	// here instead of reading the row back.
	ops map[string]core.Operation
	// requests are the provider request rows this transaction wrote, as
	// written (CreateProviderRequest, setProviderRequestState): a
	// reservation is created and marked dispatched in one transaction.
	requests map[string]core.ProviderRequest
}

// Ctx returns the transaction's context.
func (tx *Tx) Ctx() context.Context { return tx.ctx }

// Now returns the transaction's timestamp: every record and event written
// in one transaction shares it.
func (tx *Tx) Now() time.Time { return tx.now }

// Write runs fn in a BEGIN IMMEDIATE transaction and commits when fn
// returns nil; any error (or panic) rolls everything back. Write
// transactions of one process run one at a time.
func (s *Store) Write(ctx context.Context, fn func(tx *Tx) error) (err error) {
	if s.readOnly {
		return core.Errorf(core.CodeStorageError, "the store was opened read-only").
			WithHint("this is a bug: writers must use store.Open")
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err, "cannot start a write transaction")
	}
	now := s.now().UTC()
	tx := &Tx{store: s, ctx: ctx, tx: sqlTx, now: now, nowText: stamp(now), next: map[string]int64{}}
	tx.Queries = Queries{preparedQuerier{tx}}
	committed := false
	defer func() {
		if !committed {
			sqlTx.Rollback()
		}
	}()
	if err := fn(tx); err != nil {
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return storageErr(err, "cannot commit the write transaction")
	}
	committed = true
	s.durable.commit()
	s.keepScopes(tx.scopes)
	s.boundWAL(ctx)
	return nil
}

// Append records one event: it assigns ID (when empty), the session's next
// gap-free seq and ts, and returns the stored envelope.
func (tx *Tx) Append(ev core.Event) (core.Event, error) {
	if ev.Type == "" {
		return ev, core.Errorf(core.CodeInvalidRequest, "an event needs a type").
			WithHint("set Event.Type, e.g. %q", core.EvTaskCreated)
	}
	if core.IsLive(ev.Type) {
		return ev, core.Errorf(core.CodeInvalidRequest, "live update %q cannot be stored as a durable event", ev.Type).
			WithHint("live.* records are transient; store only outcomes")
	}
	if len(ev.Data) > 0 && !json.Valid(ev.Data) {
		return ev, core.Errorf(core.CodeInvalidRequest, "event %s data is not valid JSON", ev.Type).
			WithHint("pass json.RawMessage produced by json.Marshal")
	}
	if len(ev.Data) > 0 {
		// Stored compact, so exporters can emit it verbatim.
		var buf bytes.Buffer
		if err := json.Compact(&buf, ev.Data); err != nil {
			return ev, core.Wrap(err, core.CodeInvalidRequest, "event "+ev.Type+" data is not valid JSON")
		}
		ev.Data = buf.Bytes()
	}
	return tx.appendCompact(ev)
}

// appendCompact appends an event whose data is valid, compact JSON (or
// empty) and whose type is a durable one.
func (tx *Tx) appendCompact(ev core.Event) (core.Event, error) {
	seq, err := tx.nextSeq(ev.Session)
	if err != nil {
		return ev, err
	}
	ev.V = core.WireVersion
	if ev.ID == "" {
		ev.ID = core.NewID(core.KindEvent)
	}
	ev.Seq = seq
	ev.TS = tx.now
	ev.Corr = firstNonEmpty(ev.Corr, tx.Meta.Corr)
	ev.Cause = firstNonEmpty(ev.Cause, tx.Meta.Cause)
	ev.Trace = firstNonEmpty(ev.Trace, tx.Meta.Trace)
	ev.Span = firstNonEmpty(ev.Span, tx.Meta.Span)
	var data []byte
	if len(ev.Data) > 0 {
		data = ev.Data
	}
	insert, err := tx.stmt(insertEventSQL)
	if err != nil {
		return ev, err
	}
	_, err = insert.ExecContext(tx.ctx,
		ev.ID, nullable(ev.Session), ev.Seq, tx.nowText, ev.Type, ev.Task, ev.Attempt, ev.Operation,
		ev.Corr, ev.Cause, ev.Trace, ev.Span, data)
	if err != nil {
		delete(tx.next, ev.Session)
		return ev, storageErr(err, "cannot append event "+ev.Type)
	}
	tx.next[ev.Session] = seq + 1
	return ev, nil
}

const insertEventSQL = `INSERT INTO events
	(id, session_id, seq, ts, type, task_id, attempt_id, operation_id, corr, cause, trace, span, data)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// AppendBatch appends events in order within this transaction.
func (tx *Tx) AppendBatch(evs []core.Event) ([]core.Event, error) {
	out := make([]core.Event, 0, len(evs))
	for _, ev := range evs {
		stored, err := tx.Append(ev)
		if err != nil {
			return nil, err
		}
		out = append(out, stored)
	}
	return out, nil
}

// AppendBatch commits many events in one transaction (one fsync): the
// streaming checkpoint path.
func (s *Store) AppendBatch(ctx context.Context, evs []core.Event) ([]core.Event, error) {
	var out []core.Event
	err := s.Write(ctx, func(tx *Tx) error {
		var err error
		out, err = tx.AppendBatch(evs)
		return err
	})
	return out, err
}

// Append commits one event in its own transaction.
func (s *Store) Append(ctx context.Context, ev core.Event) (core.Event, error) {
	out, err := s.AppendBatch(ctx, []core.Event{ev})
	if err != nil {
		return core.Event{}, err
	}
	return out[0], nil
}

func (tx *Tx) nextSeq(session string) (int64, error) {
	if n, ok := tx.next[session]; ok {
		return n, nil
	}
	var max sql.NullInt64
	var err error
	if session == "" {
		err = tx.q.QueryRowContext(tx.ctx, "SELECT max(seq) FROM events WHERE session_id IS NULL").Scan(&max)
	} else {
		err = tx.q.QueryRowContext(tx.ctx, "SELECT max(seq) FROM events WHERE session_id = ?", session).Scan(&max)
	}
	if err != nil {
		return 0, storageErr(err, "cannot read the event sequence")
	}
	return max.Int64 + 1, nil
}

// event appends a record's canonical event with data marshalled from v.
// json.Marshal writes valid, compact JSON, so the data is not scanned
// again (Append validates and compacts what callers pass it).
func (tx *Tx) event(ev core.Event, v any) (core.Event, error) {
	if core.IsLive(ev.Type) || ev.Type == "" || v == nil {
		return tx.Append(ev) // refusals and caller-built data are checked there
	}
	// Event data is mostly maps of plain values: the appender writes
	// json.Marshal's bytes without reflection; anything it cannot write
	// goes to json.Marshal for its error.
	b, ok := core.AppendJSONValue(make([]byte, 0, 256), v, true)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return ev, core.Wrap(err, core.CodeInternal, "cannot encode event data for "+ev.Type)
		}
	}
	ev.Data = b
	return tx.appendCompact(ev)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
