package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Queries holds the read operations. Both *Store (autocommit reads) and
// *Tx (reads inside the write transaction) embed it, so the same calls
// work in and out of a transaction.
type Queries struct{ q querier }

func notFound(kind, id string) error {
	return core.Errorf(core.CodeNotFound, "no %s %q in this store", kind, id).
		WithHint("list what exists with 'fluzo-store sessions' or 'fluzo-store tasks'").
		With(kind, id)
}

// scanOne maps sql.ErrNoRows to a typed not_found error.
func scanOne(err error, kind, id string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return notFound(kind, id)
	default:
		return storageErr(err, "cannot read "+kind+" "+id)
	}
}

// collect runs a query and scans every row with scan.
func collect[T any](ctx context.Context, q querier, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, storageErr(err, "cannot query the store")
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, storageErr(err, "cannot read a stored record")
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "cannot read stored records")
	}
	return out, nil
}

// fkErr turns a foreign-key failure into a not_found naming the parent.
func fkErr(err error, what, parentKind, parentID string) error {
	if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
		return notFound(parentKind, parentID)
	}
	return storageErr(err, what)
}

// nullTime returns the stored time for a nullable column.
func nullTime(ns sql.NullString) *time.Time {
	if !ns.Valid {
		return nil
	}
	t := parseStamp(ns.String)
	return &t
}

// nullInt returns a pointer for a nullable integer (nil = unknown).
func nullInt(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	v := n.Int64
	return &v
}

func intOrNull(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
