package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Paging bounds: a page never holds more than MaxPage events, whatever the
// caller asks, so memory stays bounded on any history size.
const (
	DefaultPage = 1000
	MaxPage     = 10000
)

func pageLimit(n int) int {
	switch {
	case n <= 0:
		return DefaultPage
	case n > MaxPage:
		return MaxPage
	}
	return n
}

// EventQuery selects events. Session, Task and Type (a core.MatchType
// pattern: exact, "prefix.*", "*", comma-separated) filter; AfterSeq keeps
// events whose per-session seq is greater; AfterPos is the opaque global
// cursor returned by the previous page (0 = from the start).
type EventQuery struct {
	Session  string
	Task     string
	Type     string
	AfterSeq int64
	AfterPos int64
	Limit    int
}

// EventPage is one page of events in commit order. Next is the cursor for
// the following page (pass it as AfterPos); More is false at the end of
// what is committed now (more may be committed later: --follow polls).
type EventPage struct {
	Events []core.Event
	Next   int64
	More   bool
}

// Events returns one page of events matching q, in global commit order.
func (q Queries) Events(ctx context.Context, eq EventQuery) (EventPage, error) {
	page := EventPage{Next: eq.AfterPos}
	limit := pageLimit(eq.Limit)
	where, args := eventFilter(eq)
	args = append(args, limit+1)
	rows, err := q.q.QueryContext(ctx, `SELECT pos, id, coalesce(session_id, ''), seq, ts, type, task_id, attempt_id,
		operation_id, corr, cause, trace, span, data FROM events WHERE `+where+` ORDER BY pos LIMIT ?`, args...)
	if err != nil {
		return page, storageErr(err, "cannot read events")
	}
	defer rows.Close()
	page.Events = make([]core.Event, 0, limit)
	for rows.Next() {
		if len(page.Events) == limit {
			page.More = true
			break
		}
		ev, pos, err := scanEvent(rows)
		if err != nil {
			return page, storageErr(err, "cannot read an event")
		}
		page.Events = append(page.Events, ev)
		page.Next = pos
	}
	if err := rows.Err(); err != nil {
		return page, storageErr(err, "cannot read events")
	}
	return page, nil
}

// EachEvent streams every event matching eq page by page, calling fn for
// each; at most one page is held in memory. It stops at the first error
// fn returns and returns the cursor after the last event delivered.
func (q Queries) EachEvent(ctx context.Context, eq EventQuery, fn func(core.Event) error) (int64, error) {
	for {
		page, err := q.Events(ctx, eq)
		if err != nil {
			return eq.AfterPos, err
		}
		for _, ev := range page.Events {
			if err := fn(ev); err != nil {
				return eq.AfterPos, err
			}
		}
		eq.AfterPos = page.Next
		if !page.More {
			return eq.AfterPos, nil
		}
	}
}

func scanEvent(r *sql.Rows) (core.Event, int64, error) {
	var ev core.Event
	var pos int64
	var ts string
	var data []byte
	err := r.Scan(&pos, &ev.ID, &ev.Session, &ev.Seq, &ts, &ev.Type, &ev.Task, &ev.Attempt,
		&ev.Operation, &ev.Corr, &ev.Cause, &ev.Trace, &ev.Span, &data)
	ev.V, ev.TS = core.WireVersion, parseStamp(ts)
	if len(data) > 0 {
		ev.Data = data
	}
	return ev, pos, err
}

// eventFilter builds the WHERE clause for q. Type patterns are translated
// with exactly core.MatchType's semantics (exact or trailing-* prefix).
func eventFilter(q EventQuery) (string, []any) {
	conds := []string{"pos > ?"}
	args := []any{q.AfterPos}
	if q.Session != "" {
		conds, args = append(conds, "session_id = ?"), append(args, q.Session)
	}
	if q.Task != "" {
		conds, args = append(conds, "task_id = ?"), append(args, q.Task)
	}
	if q.AfterSeq > 0 {
		conds, args = append(conds, "seq > ?"), append(args, q.AfterSeq)
	}
	if alts, typeArgs := typeFilter(q.Type); alts != "" {
		conds, args = append(conds, alts), append(args, typeArgs...)
	}
	return strings.Join(conds, " AND "), args
}

// typeFilter returns the SQL condition for a type pattern ("" when every
// type matches).
func typeFilter(pattern string) (string, []any) {
	if pattern == "" {
		return "", nil
	}
	var alts []string
	var args []any
	for _, p := range strings.Split(pattern, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "*":
			return "", nil
		case strings.HasSuffix(p, "*"):
			alts, args = append(alts, "instr(type, ?) = 1"), append(args, strings.TrimSuffix(p, "*"))
		default:
			alts, args = append(alts, "type = ?"), append(args, p)
		}
	}
	return "(" + strings.Join(alts, " OR ") + ")", args
}
