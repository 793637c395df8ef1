package store

import (
	"database/sql"
)

// stmt returns query prepared for this transaction. The statement is
// prepared once per store and reused on every transaction (database/sql
// keeps one driver statement per connection), so the hot writes of a
// turn — event inserts, sequence reads, operation updates — are not
// parsed by SQLite again on every commit. The cache is used under
// writeMu, which every Tx holds.
func (tx *Tx) stmt(query string) (*sql.Stmt, error) {
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
	return tx.tx.StmtContext(tx.ctx, st), nil
}

// closeStmts releases the prepared statements (Close).
func (s *Store) closeStmts() {
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
}
