package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// SessionRow is one line of a sessions listing: the session and how many
// of its tasks are in each state.
type SessionRow struct {
	core.Session
	Tasks map[string]int `json:"tasks"`
}

// SessionPageQuery selects one bounded window of sessions, newest first.
// Match filters by a case-insensitive substring of the title or ID.
type SessionPageQuery struct {
	Match  string
	Offset int
	Limit  int // 0: MaxSessionPage
}

// MaxSessionPage bounds a sessions page, so a listing of any history
// reads a window, never the whole table.
const MaxSessionPage = 200

// SessionPage is a window of sessions and whether more follow it.
type SessionPage struct {
	Sessions []SessionRow `json:"sessions"`
	More     bool         `json:"more"`
}

// ListSessionPage returns one window of sessions, newest first, with the
// task states of each; it reads at most Limit+1 session rows.
func (q Queries) ListSessionPage(ctx context.Context, pq SessionPageQuery) (SessionPage, error) {
	limit := pq.Limit
	if limit <= 0 || limit > MaxSessionPage {
		limit = MaxSessionPage
	}
	where, args := "", []any{}
	if m := strings.TrimSpace(pq.Match); m != "" {
		like := "%" + escapeLike(strings.ToLower(m)) + "%"
		where = ` WHERE lower(title) LIKE ? ESCAPE '\' OR lower(id) LIKE ? ESCAPE '\'`
		args = append(args, like, like)
	}
	args = append(args, limit+1, max(pq.Offset, 0))
	rows, err := collect(ctx, q.q, func(r *sql.Rows) (core.Session, error) { return scanSession(r) },
		"SELECT "+sessionCols+" FROM sessions"+where+" ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?", args...)
	if err != nil {
		return SessionPage{}, err
	}
	page := SessionPage{Sessions: []SessionRow{}}
	if len(rows) > limit {
		rows, page.More = rows[:limit], true
	}
	for _, s := range rows {
		states, err := q.taskStates(ctx, s.ID)
		if err != nil {
			return SessionPage{}, err
		}
		page.Sessions = append(page.Sessions, SessionRow{Session: s, Tasks: states})
	}
	return page, nil
}

// taskStates counts a session's tasks by state.
func (q Queries) taskStates(ctx context.Context, session string) (map[string]int, error) {
	type count struct {
		state string
		n     int
	}
	counts, err := collect(ctx, q.q, func(r *sql.Rows) (count, error) {
		var c count
		return c, r.Scan(&c.state, &c.n)
	}, "SELECT state, count(*) FROM tasks WHERE session_id = ? GROUP BY state", session)
	out := map[string]int{}
	for _, c := range counts {
		out[c.state] = c.n
	}
	return out, err
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
