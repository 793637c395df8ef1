package store

import (
	"context"
	"database/sql"
	"strings"
)

// maxCachedStmts bounds the prepared-statement cache. The write path's
// queries are a small fixed set; queries built from filters (event pages,
// purges) may vary, and past the bound they run unprepared as before.
const maxCachedStmts = 96

// stmt returns query prepared for this transaction. The statement is
// prepared once per store and reused on every transaction (database/sql
// keeps one driver statement per connection), so the hot writes of a
// turn — event inserts, sequence reads, operation updates — are not
// parsed by SQLite again on every commit. The cache is used under
// writeMu, which every Tx holds. The statement bound to this transaction
// is kept too: binding allocates, and a turn's commit runs the same few
// statements several times.
func (tx *Tx) stmt(query string) (*sql.Stmt, error) {
	if st, ok := tx.bound[query]; ok {
		return st, nil
	}
	s := tx.store
	st, ok := s.stmts[query]
	if !ok {
		var err error
		if st, err = s.db.PrepareContext(tx.ctx, query); err != nil {
			return nil, storageErr(err, "cannot prepare a statement")
		}
		if s.stmts == nil {
			s.stmts = map[string]*sql.Stmt{}
		}
		s.stmts[query] = st
	}
	b := tx.tx.StmtContext(tx.ctx, st)
	if tx.bound == nil {
		tx.bound = map[string]*sql.Stmt{}
	}
	tx.bound[query] = b
	return b, nil
}

// cacheable reports whether query may be prepared and kept. A script of
// several statements never is: a prepared statement runs only the first.
func (tx *Tx) cacheable(query string) bool {
	if _, ok := tx.store.stmts[query]; ok {
		return true
	}
	return len(tx.store.stmts) < maxCachedStmts && !strings.Contains(strings.TrimRight(query, "; \n\t"), ";")
}

// closeStmts releases the prepared statements (Close).
func (s *Store) closeStmts() {
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
}

// preparedQuerier is a transaction's querier: every statement a Tx runs
// (its own writes and the Queries reads made inside it) goes through the
// prepared-statement cache. A statement that cannot be cached or
// prepared runs directly on the transaction, which reports any error.
type preparedQuerier struct{ tx *Tx }

func (p preparedQuerier) prepared(query string) *sql.Stmt {
	if !p.tx.cacheable(query) {
		return nil
	}
	st, err := p.tx.stmt(query)
	if err != nil {
		return nil
	}
	return st
}

func (p preparedQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := p.prepared(query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return p.tx.tx.ExecContext(ctx, query, args...)
}

func (p preparedQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := p.prepared(query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.tx.tx.QueryContext(ctx, query, args...)
}

func (p preparedQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := p.prepared(query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.tx.tx.QueryRowContext(ctx, query, args...)
}
