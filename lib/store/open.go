package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// BusyTimeout is how long a connection waits for another writer's lock
// before failing with storage_error.
const BusyTimeout = 5 * time.Second

const (
	writerDriver = "fluzo-sqlite3"
	readerDriver = "fluzo-sqlite3-ro"
)

func init() {
	// The writer driver re-checks the durability pragmas on every new
	// connection of the pool, not just the first one.
	sql.Register(writerDriver, &sqlite3.SQLiteDriver{ConnectHook: verifyPragmas})
	sql.Register(readerDriver, &sqlite3.SQLiteDriver{})
}

// Store is an open state database. A writer (Open) may run write
// transactions; a reader (OpenReadOnly) may only query. Both are safe for
// concurrent use by several goroutines.
type Store struct {
	Queries
	db       *sql.DB
	ws       Workspace
	readOnly bool
	// writeMu serialises this process's write transactions so that they
	// queue in Go instead of spinning on SQLite's busy handler.
	writeMu sync.Mutex
	now     func() time.Time
	project Project
	// walRetryAt and walTruncateAt are the -wal sizes at which boundWAL
	// next tries a passive or a TRUNCATE checkpoint (under writeMu).
	walRetryAt, walTruncateAt int64
	// walCheckpoints counts boundWAL's checkpoint attempts (tests).
	walCheckpoints int
	// durable counts this process's commits and explicit fsyncs (the
	// journal's commit budget is asserted by count, never by time).
	durable durableCounter
	// scopes caches attempts' session and task (immutable; under writeMu).
	scopes map[string]attemptScope
	// stmts are the write path's prepared statements (under writeMu).
	stmts map[string]*sql.Stmt
	// opReads counts the operation rows SetOperationState read from the
	// database (tests: a row written in the same transaction is not
	// read back; under writeMu).
	opReads int
	// requestReads likewise counts provider request rows read back.
	requestReads int
	// quickChecked: the open read every page, the database not being as
	// its last writer closed it (cleanclose.go).
	quickChecked bool
}

// Workspace returns the workspace the store belongs to.
func (s *Store) Workspace() Workspace { return s.ws }

// ReadOnly reports whether the store was opened with OpenReadOnly.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Close releases the database. A writer first truncates the WAL to zero
// bytes (a short wait for readers; if one holds it up, the log stays for
// the next writer to checkpoint), so a closed store occupies only its
// main file even while readers keep it open.
func (s *Store) Close() error {
	whole := !s.readOnly && s.checkpoint(context.Background(), "TRUNCATE") == nil
	s.writeMu.Lock()
	s.closeStmts()
	s.writeMu.Unlock()
	err := s.db.Close()
	if whole && err == nil {
		leaveCleanStamp(s.ws)
	}
	return err
}

// DB exposes the handle for read-only diagnostics (check, stats). Writers
// must use Write.
func (s *Store) DB() *sql.DB { return s.db }

func dsn(path string, params url.Values) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + params.Encode()
}

// Open opens (creating and migrating as needed) the workspace's store for
// writing. It refuses to create private data unless git confirms that
// .fluzodrive/ is untracked and excluded, refuses a symlinked data root,
// and verifies WAL, synchronous=FULL, foreign_keys and busy_timeout on
// every connection; any failure is a storage_error (exit 13).
func Open(ctx context.Context, ws Workspace) (*Store, error) {
	if err := EnsureDrive(ctx, ws); err != nil {
		return nil, err
	}
	return OpenEnsured(ctx, ws)
}

// OpenEnsured is Open for a caller that has just confirmed the drive with
// EnsureDrive itself — the workspace owner, which needs the drive for its
// lock before it opens the store. The exclusion check is two git
// commands (four processes with their configuration listings) on the way
// to a run's first request; it is not run twice.
func OpenEnsured(ctx context.Context, ws Workspace) (*Store, error) {
	if err := ensureCreated(ctx, ws); err != nil {
		return nil, err
	}
	if err := createPrivateFile(ws.Database()); err != nil {
		return nil, err
	}
	closedCleanly := takeCleanStamp(ws)
	db, err := sql.Open(writerDriver, dsn(ws.Database(), writerParams()))
	if err != nil {
		return nil, storageErr(err, "cannot open "+ws.Database())
	}
	s := &Store{Queries: Queries{db}, db: db, ws: ws, now: time.Now}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, asStorage(err, "cannot open "+ws.Database())
	}
	if !closedCleanly {
		s.quickChecked = true
		if err := quickCheck(ctx, db, ws.Database()); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := migrate(ctx, s); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.ensureProject(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// writerParams are the connection settings of every writer connection.
func writerParams() url.Values {
	params := url.Values{}
	params.Set("_txlock", "immediate")
	params.Set("_journal_mode", "WAL")
	params.Set("_synchronous", "FULL")
	params.Set("_foreign_keys", "1")
	params.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	return params
}

// quickCheckErrors bounds how many problems the open-time check collects;
// one is enough to refuse, a few help the report.
const quickCheckErrors = 5

// quickCheck refuses a damaged store before anything writes to it; an
// open skips it for a database exactly as a clean close left it
// (cleanclose.go).
// PRAGMA quick_check reads every page once (O(N), no index cross-checks),
// which is what catches a zeroed or torn page; integrity_check, which
// also verifies every index entry, is left to 'fluzo-store check'.
func quickCheck(ctx context.Context, db *sql.DB, path string) error {
	res, err := collect(ctx, db, scanString, fmt.Sprintf("PRAGMA quick_check(%d)", quickCheckErrors))
	if err != nil {
		return openFailure(path, err)
	}
	if len(res) != 1 || res[0] != "ok" {
		return damaged(path, errors.New("SQLite quick check: "+oneLine(strings.Join(first(res, quickCheckErrors), "; "))))
	}
	return nil
}

// OpenReadOnly opens an existing store for queries only. It never creates,
// migrates or repairs anything and works while a writer is active (WAL).
// A missing store is not_found; a store of another schema version is a
// storage_error.
func OpenReadOnly(ctx context.Context, ws Workspace) (*Store, error) {
	if _, err := checkDataRoot(ws); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(ws.Database())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, core.Errorf(core.CodeNotFound, "no Fluzo store in %s", ws.Root).
			WithHint("run 'fluzo-store init' (or a task) in the repository first")
	case err != nil:
		return nil, storageErr(err, "cannot inspect "+ws.Database())
	case !fi.Mode().IsRegular():
		return nil, core.Errorf(core.CodeStorageError, "%s is not a regular file", ws.Database()).
			WithHint("remove the link or special file; Fluzo never follows it")
	}
	params := url.Values{}
	params.Set("mode", "ro")
	params.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	params.Set("_query_only", "1")
	db, err := sql.Open(readerDriver, dsn(ws.Database(), params))
	if err != nil {
		return nil, storageErr(err, "cannot open "+ws.Database())
	}
	s := &Store{Queries: Queries{db}, db: db, ws: ws, readOnly: true, now: time.Now}
	v, err := userVersion(ctx, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := compatible(v, ws); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.loadProject(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		db.Close()
		return nil, storageErr(err, "cannot read the project record")
	}
	return s, nil
}

// compatible accepts exactly the current schema for read-only use.
func compatible(v int, ws Workspace) error {
	switch {
	case v == SchemaVersion:
		return nil
	case v == 0:
		return core.Errorf(core.CodeNotFound, "the store %s is not initialised", ws.Database()).
			WithHint("run 'fluzo-store init' in %s", ws.Root)
	case v > SchemaVersion:
		return newerSchema(v, ws)
	default:
		return core.Errorf(core.CodeStorageError, "the store %s has schema v%d; this build reads v%d", ws.Database(), v, SchemaVersion).
			WithHint("open it once for writing ('fluzo-store init') to migrate it; a backup is made first")
	}
}

func newerSchema(v int, ws Workspace) error {
	return core.Errorf(core.CodeStorageError, "the store %s has schema v%d, newer than this build (v%d)", ws.Database(), v, SchemaVersion).
		WithHint("upgrade Fluzo; the store is left untouched")
}

// pragmaWant lists the values each writer connection must report.
var pragmaWant = []struct{ name, want string }{
	{"journal_mode", "wal"},
	{"synchronous", "2"},
	{"foreign_keys", "1"},
	{"busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds())},
}

// verifyPragmas reads back the durability pragmas of a new connection
// and caps the size the WAL file is cut back to after a checkpoint.
func verifyPragmas(conn *sqlite3.SQLiteConn) error {
	if _, err := conn.Exec(fmt.Sprintf("PRAGMA journal_size_limit = %d", WALCheckpointBytes), nil); err != nil {
		return storageErr(err, "cannot set journal_size_limit")
	}
	for _, p := range pragmaWant {
		got, err := pragmaValue(conn, p.name)
		if err != nil {
			return err
		}
		if !strings.EqualFold(got, p.want) {
			return core.Errorf(core.CodeStorageError, "SQLite pragma %s is %q, want %q", p.name, got, p.want).
				WithHint("the filesystem may not support WAL (network or read-only filesystems); keep the workspace on a local disk").
				With("pragma", p.name)
		}
	}
	return nil
}
