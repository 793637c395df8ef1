package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"time"
)

// WAL bounds. SQLite's own auto-checkpoint (1000 pages) never shrinks the
// -wal file, so on a small disk the log could outgrow the data it carried.
// After each commit the writer checks the log's size: past
// WALCheckpointBytes it runs a passive checkpoint (never waits), after
// which the next commit restarts the log and journal_size_limit cuts the
// file back; past WALTruncateBytes (readers kept the log from
// restarting) it runs a TRUNCATE checkpoint with a short wait. Close
// truncates the log to zero.
const (
	WALCheckpointBytes = 1 << 20
	WALTruncateBytes   = 8 << 20
	// walTruncateWait bounds how long a TRUNCATE checkpoint waits for
	// readers; a reader that holds it up only delays the truncation.
	walTruncateWait = 200 * time.Millisecond
	walRetryBytes   = WALCheckpointBytes / 4
)

// walPath is the store's write-ahead log.
func (s *Store) walPath() string { return s.ws.Database() + "-wal" }

// boundWAL runs after every commit of this process (under writeMu).
// Checkpoint failures are not the commit's failure: the data is durable
// in the log, and the next commit tries again.
// When readers keep a checkpoint from completing, attempts back off: a
// passive one (which never waits) comes again after walRetryBytes of
// growth, a TRUNCATE (which waits up to walTruncateWait) only once the
// log has doubled, so a long reader costs a handful of waits, not one
// per commit. SQLite's own auto-checkpoint still runs passively after
// every commit past 1000 pages, so the log shrinks soon after the reader
// ends.
func (s *Store) boundWAL(ctx context.Context) {
	fi, err := os.Stat(s.walPath())
	if err != nil || fi.Size() <= WALCheckpointBytes {
		s.walRetryAt, s.walTruncateAt = 0, 0
		return
	}
	size := fi.Size()
	switch {
	case size > WALTruncateBytes && size >= s.walTruncateAt:
		s.walTruncateAt = 2 * size
		s.walCheckpoints++
		s.checkpoint(ctx, "TRUNCATE")
	case size >= s.walRetryAt:
		s.walRetryAt = size + walRetryBytes
		s.walCheckpoints++
		s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	}
}

// checkpoint runs a blocking checkpoint mode with a short busy wait on a
// dedicated connection, restoring the connection's busy timeout (or
// discarding the connection when it cannot).
func (s *Store) checkpoint(ctx context.Context, mode string) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", walTruncateWait.Milliseconds())); err != nil {
		return err
	}
	var busy, logged, moved int
	cerr := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &logged, &moved)
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", BusyTimeout.Milliseconds())); err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	if cerr == nil && busy != 0 {
		cerr = errCheckpointBusy
	}
	return cerr
}

// errCheckpointBusy: a reader or writer kept the checkpoint from
// finishing; the log still holds frames the database lacks.
var errCheckpointBusy = errors.New("the checkpoint could not finish")
