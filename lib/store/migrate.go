package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// BackupsDir holds the VACUUM INTO copies made before each migration.
const BackupsDir = "backups"

func userVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, storageErr(err, "cannot read the store's schema version")
	}
	return v, nil
}

// migrate brings the store to SchemaVersion. It refuses a newer schema and
// a database that is not a Fluzo store, and backs up an existing store with
// VACUUM INTO before changing it.
func migrate(ctx context.Context, s *Store) error {
	v, err := userVersion(ctx, s.db)
	if err != nil {
		return err
	}
	switch {
	case v > len(migrations):
		return newerSchema(v, s.ws)
	case v == len(migrations):
		return nil
	case v == 0:
		var n int
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
			return storageErr(err, "cannot read the store's schema")
		}
		if n > 0 {
			return core.Errorf(core.CodeStorageError, "%s holds tables but no Fluzo schema version", s.ws.Database()).
				WithHint("move the file away; Fluzo does not reuse an arbitrary database as its store")
		}
	default:
		if _, err := s.backup(ctx, v); err != nil {
			return err
		}
	}
	for i := v; i < len(migrations); i++ {
		if err := applyMigration(ctx, s.db, i); err != nil {
			return err
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, from int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err, "cannot start the schema migration")
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, migrations[from]); err != nil {
		return storageErr(err, fmt.Sprintf("schema migration v%d→v%d failed", from, from+1))
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", from+1)); err != nil {
		return storageErr(err, "cannot record the schema version")
	}
	if err := tx.Commit(); err != nil {
		return storageErr(err, fmt.Sprintf("cannot commit schema migration v%d→v%d", from, from+1))
	}
	return nil
}

// backup writes a consistent copy of the store (VACUUM INTO) to
// .fluzodrive/backups/ and returns its path.
func (s *Store) backup(ctx context.Context, version int) (string, error) {
	dir := filepath.Join(s.ws.Drive(), BackupsDir)
	if err := mkdirPrivate(dir); err != nil {
		return "", err
	}
	stamp := s.now().UTC().Format("20060102T150405.000000000Z")
	path := filepath.Join(dir, fmt.Sprintf("state-v%d-%s.sqlite3", version, stamp))
	// VACUUM INTO accepts an existing empty file; creating it first gives
	// the copy owner-only permissions from the start.
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, FileMode)
	if err != nil {
		return "", core.Wrap(err, core.CodeStorageError, "cannot create backup "+path).
			WithHint("check free space and the permissions of .fluzodrive")
	}
	f.Close()
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		os.Remove(path)
		return "", storageErr(err, "cannot back up the store before migrating it")
	}
	return path, nil
}

// Project is the store's record of the workspace it belongs to.
type Project struct {
	ID        string    `json:"id"`
	Workspace Workspace `json:"workspace"`
	CreatedAt string    `json:"created_at"`
}

// Project returns the store's project record.
func (s *Store) Project() Project { return s.project }

// IdentityMatches reports whether the store was created for this same
// directory (device and inode), not a copy or a replacement at its path.
func (s *Store) IdentityMatches() bool {
	p := s.project.Workspace
	return p.Dev == s.ws.Dev && p.Inode == s.ws.Inode
}

func (s *Store) loadProject(ctx context.Context) error {
	row := s.db.QueryRowContext(ctx, "SELECT id, root, dev, inode, created_at FROM projects ORDER BY created_at LIMIT 1")
	var p Project
	err := row.Scan(&p.ID, &p.Workspace.Root, &p.Workspace.Dev, &p.Workspace.Inode, &p.CreatedAt)
	if err != nil {
		return err
	}
	s.project = p
	return nil
}

// ensureProject records the workspace identity the first time the store
// is opened for writing.
func (s *Store) ensureProject(ctx context.Context) error {
	err := s.loadProject(ctx)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return storageErr(err, "cannot read the project record")
	}
	p := Project{ID: core.NewID(core.KindProject), Workspace: s.ws, CreatedAt: stamp(s.now())}
	_, err = s.db.ExecContext(ctx, "INSERT INTO projects (id, root, dev, inode, created_at) VALUES (?, ?, ?, ?, ?)",
		p.ID, p.Workspace.Root, p.Workspace.Dev, p.Workspace.Inode, p.CreatedAt)
	if err != nil && !strings.Contains(err.Error(), "UNIQUE") {
		return storageErr(err, "cannot record the project")
	}
	return s.loadProject(ctx)
}
