package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// storageErr wraps a low-level failure as storage_error (exit 13).
func storageErr(err error, what string) *core.Error {
	if readOnlyFS(err) {
		return readOnlyErr(err, what)
	}
	e := core.Wrap(err, core.CodeStorageError, what)
	if diskFull(err) {
		return e.WithHint("the disk is full; free space or purge history ('fluzo-store history purge'); the store is intact and reopens once there is room")
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return e.WithHint("another process holds the store's write lock; retry when it finishes")
		case sqlite3.ErrCorrupt, sqlite3.ErrNotADB:
			return e.WithHint("the database is damaged; run 'fluzo-store check'; move the file away to start a new history, or restore a copy from .fluzodrive/backups if one exists")
		case sqlite3.ErrFull:
			return e.WithHint("the disk is full; free space or purge history ('fluzo-store history purge')")
		case sqlite3.ErrReadonly, sqlite3.ErrPerm, sqlite3.ErrCantOpen:
			return e.WithHint("check the permissions of .fluzodrive and its files (owner-only, 0700/0600)")
		}
	}
	return e.WithHint("run 'fluzo-store check' for details")
}

// readOnlyFS reports a write refused because the filesystem is mounted
// read-only (EROFS), directly or as SQLite's system errno.
func readOnlyFS(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) && se.SystemErrno == syscall.EROFS {
		return true
	}
	return errors.Is(err, syscall.EROFS)
}

// readOnlyErr names a read-only filesystem as such, with the path the
// write was refused at when the error carries one, so the user knows
// which mount to fix rather than reading a permissions hint.
func readOnlyErr(err error, what string) *core.Error {
	msg := what + ": " + core.DescribeSystemError(syscall.EROFS)
	if p := errorPath(err); p != "" {
		msg += ": " + p
	}
	return core.Wrap(err, core.CodeStorageError, msg).
		WithHint("the filesystem holding the workspace's .fluzodrive is mounted read-only; remount it read-write or work in a writable copy of the repository")
}

// errorPath is the file path an OS error names, if any.
func errorPath(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &le):
		return le.New
	case errors.As(err, &pe):
		return pe.Path
	}
	return ""
}

// diskFull reports a failure caused by a full filesystem: SQLITE_FULL,
// or an I/O error whose system errno is ENOSPC or EDQUOT (SQLite reports
// a full disk while growing -shm or -wal as SQLITE_IOERR).
func diskFull(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrFull || se.SystemErrno == syscall.ENOSPC || se.SystemErrno == syscall.EDQUOT
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// isCorrupt reports SQLite's verdict that the file is damaged or not a
// database at all, as opposed to a failure to read it.
func isCorrupt(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// asStorage keeps a typed error as is and wraps anything else.
func asStorage(err error, what string) error {
	var fe *core.Error
	if errors.As(err, &fe) {
		return fe
	}
	return storageErr(err, what)
}

// pragmaValue reads one pragma on a raw driver connection.
func pragmaValue(conn *sqlite3.SQLiteConn, name string) (string, error) {
	rows, err := conn.Query("PRAGMA "+name, nil)
	if err != nil {
		return "", storageErr(err, "cannot read pragma "+name)
	}
	defer rows.Close()
	dest := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(dest); err != nil {
		if errors.Is(err, io.EOF) {
			return "", core.Errorf(core.CodeStorageError, "pragma %s returned nothing", name)
		}
		return "", storageErr(err, "cannot read pragma "+name)
	}
	switch v := dest[0].(type) {
	case []byte:
		return string(v), nil
	default:
		return fmt.Sprint(v), nil
	}
}

func errMessage(err error) string { return core.AsError(err).Error() }
func errHint(err error) string    { return core.AsError(err).Hint }
