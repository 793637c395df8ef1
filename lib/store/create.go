package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// creatingInfix marks a store being built under a temporary name inside
// .fluzodrive; only a complete, schema-bearing file is ever renamed to
// state.sqlite3, so a crash during creation leaves at most such a
// leftover, which the next writer removes.
const creatingInfix = ".creating-"

// maxZeroProbe bounds how much of an all-zero leftover is read to prove it
// holds nothing; a crash during creation never leaves more than a few
// pages.
const maxZeroProbe = 1 << 20

// ensureCreated makes sure state.sqlite3 exists and carries a schema. A
// missing store is built atomically; a schema-less leftover of an older
// crash is recognised and rebuilt. It runs under the drive's creation
// lock, so concurrent writers never race to build or replace the file.
func ensureCreated(ctx context.Context, ws Workspace) error {
	unlock, err := lockDrive(ws)
	if err != nil {
		return err
	}
	defer unlock()
	sweepCreating(ws)
	fi, err := os.Lstat(ws.Database())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createAtomically(ctx, ws)
	case err != nil:
		return storageErr(err, "cannot inspect "+ws.Database())
	case !fi.Mode().IsRegular():
		return core.Errorf(core.CodeStorageError, "%s is not a regular file", ws.Database()).
			WithHint("remove the link or special file; Fluzo never follows it")
	}
	empty, err := holdsNothing(ctx, ws.Database(), fi.Size())
	if err != nil || !empty {
		return err
	}
	// Safe to discard: holdsNothing proved the file has no table (after
	// SQLite replayed any committed WAL frames) and no schema version, so
	// no row can be lost; every store this build creates has tables from
	// its first visible moment, so only an interrupted creation by an
	// older build leaves such a file, and the creation lock keeps any
	// concurrent creator of this build out.
	for _, p := range sidecars(ws.Database()) {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return storageErr(err, "cannot remove the empty leftover "+p)
		}
	}
	return createAtomically(ctx, ws)
}

// sidecars are the database file and the files SQLite keeps beside it.
func sidecars(path string) []string {
	return []string{path, path + "-wal", path + "-shm", path + "-journal"}
}

// lockDrive takes an exclusive flock on the .fluzodrive directory for the
// duration of store creation.
func lockDrive(ws Workspace) (func(), error) {
	fd, err := unix.Open(ws.Drive(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, storageErr(err, "cannot open "+ws.Drive())
	}
	if err := unix.Flock(fd, unix.LOCK_EX); err != nil {
		unix.Close(fd)
		return nil, storageErr(err, "cannot lock "+ws.Drive()+" for store creation")
	}
	return func() { unix.Close(fd) }, nil
}

// sweepCreating removes leftovers of interrupted creations (and of
// interrupted clean-close stamps). It runs under the creation lock, which
// every creator holds while its file exists.
func sweepCreating(ws Workspace) {
	prefix := filepath.Base(ws.Database()) + creatingInfix
	ents, err := os.ReadDir(ws.Drive())
	if err != nil {
		return
	}
	for _, e := range ents {
		// A clean-close stamp cut short is litter too (cleanclose.go); one
		// swept as it was written only costs the next open its check.
		leftover := strings.HasPrefix(e.Name(), prefix) || strings.HasPrefix(e.Name(), cleanStampName+".new-")
		if leftover && e.Type().IsRegular() {
			os.Remove(filepath.Join(ws.Drive(), e.Name()))
		}
	}
}

// holdsNothing reports whether the existing database file is a
// schema-less leftover: zero bytes, all zero bytes, or a SQLite database
// with neither tables nor a schema version. A file that is not a database
// at all is refused as damaged.
func holdsNothing(ctx context.Context, path string, size int64) (bool, error) {
	if size == 0 {
		return true, nil
	}
	// A store this build made has a schema version from its first visible
	// moment, and the version never returns to 0. A main-file header that
	// shows one proves the file holds a store without opening SQLite on
	// every owner's start (an open and close that also checkpoints and
	// deletes the WAL); a damaged store still reaches the quick check.
	if versioned, err := headerVersioned(path); err != nil || versioned {
		return false, err
	}
	if size <= maxZeroProbe {
		zero, err := allZero(path)
		if err != nil || zero {
			return zero, err
		}
	}
	// Plain read-write open without pragmas: the probe must not change
	// the file (no journal-mode switch), only let SQLite replay a WAL.
	db, err := sql.Open(readerDriver, dsn(path, url.Values{"_busy_timeout": {"5000"}}))
	if err != nil {
		return false, storageErr(err, "cannot open "+path)
	}
	defer db.Close()
	var version, tables int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return false, openFailure(path, err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return false, openFailure(path, err)
	}
	return version == 0 && tables == 0, nil
}

// sqliteMagic opens every SQLite database file; user_version is the
// big-endian 32-bit integer at offset 60 of its 100-byte header.
const sqliteMagic = "SQLite format 3\x00"

// headerVersioned reports whether path's database header carries a
// non-zero user_version.
func headerVersioned(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return false, storageErr(err, "cannot read "+path)
	}
	defer f.Close()
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return false, nil // shorter than a header: not a versioned store
	}
	return string(h[:len(sqliteMagic)]) == sqliteMagic && binary.BigEndian.Uint32(h[60:64]) != 0, nil
}

func allZero(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return false, storageErr(err, "cannot read "+path)
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, maxZeroProbe+1))
	if err != nil {
		return false, storageErr(err, "cannot read "+path)
	}
	return len(bytes.Trim(buf, "\x00")) == 0, nil
}

// openFailure is the refusal for a store that could not be read: damaged
// when SQLite says so, otherwise the underlying storage failure (a full
// disk is not damage).
func openFailure(path string, err error) *core.Error {
	if isCorrupt(err) {
		return damaged(path, err)
	}
	return storageErr(err, "cannot read the store "+path+": "+rootCause(err))
}

// damaged is the refusal for a store SQLite calls damaged or that fails
// its quick check.
func damaged(path string, err error) *core.Error {
	return core.Wrap(err, core.CodeStorageError, "the store "+path+" is damaged: "+rootCause(err)).
		WithHint("nothing was changed; run 'fluzo-store check' for details, then restore %s from the newest copy in %s (VACUUM INTO backups made before each migration) or move it away to start a new history",
			path, filepath.Join(filepath.Dir(path), BackupsDir))
}

// createAtomically builds a complete store under a temporary name inside
// .fluzodrive (schema applied, WAL checkpointed into the main file and
// removed), fsyncs it, renames it to state.sqlite3 without replacing
// anything, and fsyncs the directory: a crash at any point leaves either
// no store or a complete one.
func createAtomically(ctx context.Context, ws Workspace) error {
	tmp := ws.Database() + creatingInfix + randomSuffix()
	defer func() {
		for _, p := range sidecars(tmp) {
			os.Remove(p)
		}
	}()
	if err := buildStore(ctx, ws, tmp); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	beforeRename(tmp)
	if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, ws.Database(), unix.RENAME_NOREPLACE); err != nil {
		return storageErr(err, "cannot move the new store into place at "+ws.Database())
	}
	return syncFile(ws.Drive())
}

// beforeRename is a test seam: crash tests kill the process here, at the
// last moment before the store becomes visible.
var beforeRename = func(tmp string) {}

func buildStore(ctx context.Context, ws Workspace, tmp string) error {
	if err := createPrivateFile(tmp); err != nil {
		return err
	}
	db, err := sql.Open(writerDriver, dsn(tmp, writerParams()))
	if err != nil {
		return storageErr(err, "cannot create "+tmp)
	}
	s := &Store{Queries: Queries{db}, db: db, ws: ws}
	if err := migrate(ctx, s); err != nil {
		db.Close()
		return err
	}
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		db.Close()
		return storageErr(err, "cannot checkpoint the new store")
	}
	if err := db.Close(); err != nil {
		return storageErr(err, "cannot close the new store")
	}
	return nil
}

// syncFile fsyncs a file or directory.
func syncFile(path string) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return storageErr(err, "cannot open "+path+" to flush it")
	}
	defer unix.Close(fd)
	if err := unix.Fsync(fd); err != nil {
		return storageErr(err, "cannot flush "+path+" to disk")
	}
	return nil
}

func randomSuffix() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// rootCause is the innermost error's text (SQLite's own words).
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// oneLine folds SQLite's multi-line report into one message line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
