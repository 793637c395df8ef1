package telemetry

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// ArchiveVersion is the "v" of every archive record. The envelope is
// Fluzo's documented diagnostic format, not an official OTel schema.
const ArchiveVersion = 1

// ArchiveDirName is the archive's directory inside .fluzodrive.
const ArchiveDirName = "telemetry"

// Segment files are named <signal>-<UTC start>-<pid>-<seq>.jsonl, so that
// concurrent processes never share a file and names sort by time.
const segmentTimeLayout = "20060102T150405Z"

// openArchiveDir creates DriveDir/telemetry with mode 0700, refusing to
// follow a symlink at either level. DriveDir must already exist.
func openArchiveDir(drive string) (string, error) {
	// The drive itself is created (and git-excluded) by its owner before
	// any private data is written; telemetry never creates it.
	if fi, err := os.Lstat(drive); err != nil || fi.Mode()&os.ModeSymlink != 0 || !fi.IsDir() {
		return "", core.Errorf(core.CodeStorageError, "workspace state directory %s is missing or not a plain directory", drive).
			WithHint("initialise the workspace first (fluzo init), then run again")
	}
	for _, p := range []string{filepath.Join(drive, ArchiveDirName)} {
		fi, err := os.Lstat(p)
		switch {
		case os.IsNotExist(err):
			if err := os.Mkdir(p, 0o700); err != nil && !os.IsExist(err) {
				return "", core.Wrap(err, core.CodeStorageError, "cannot create telemetry archive directory "+p).
					WithHint("check that the workspace is writable")
			}
		case err != nil:
			return "", core.Wrap(err, core.CodeStorageError, "cannot inspect "+p)
		case fi.Mode()&os.ModeSymlink != 0 || !fi.IsDir():
			return "", core.Errorf(core.CodeStorageError, "%s is not a plain directory (symlinks are never followed)", p).
				WithHint("remove or rename it, then run again")
		}
	}
	return filepath.Join(drive, ArchiveDirName), nil
}

// segmentWriter appends JSONL lines to the current segment of one signal
// and rotates by size. It is used by a single queue worker only.
type segmentWriter struct {
	dir     string
	signal  string
	limit   int64
	stamp   string
	seq     int
	f       *os.File
	w       *bufio.Writer
	written int64
}

func newSegmentWriter(dir, signal string, limit int64) *segmentWriter {
	return &segmentWriter{dir: dir, signal: signal, limit: limit, stamp: time.Now().UTC().Format(segmentTimeLayout)}
}

func (s *segmentWriter) open() error {
	s.seq++
	name := fmt.Sprintf("%s-%s-%d-%04d.jsonl", s.signal, s.stamp, os.Getpid(), s.seq)
	// O_EXCL: a segment is never reopened or overwritten.
	f, err := os.OpenFile(filepath.Join(s.dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND|syscallNoFollow, 0o600)
	if err != nil {
		return err
	}
	s.f, s.w, s.written = f, bufio.NewWriterSize(f, 64<<10), 0
	return nil
}

// writeBatch appends whole lines, rotating before a line that would cross
// the limit (a segment holds at least one line, however long).
func (s *segmentWriter) writeBatch(_ context.Context, lines [][]byte) error {
	for _, line := range lines {
		if s.f != nil && s.written > 0 && s.written+int64(len(line)) > s.limit {
			if err := s.close(); err != nil {
				return err
			}
		}
		if s.f == nil {
			if err := s.open(); err != nil {
				return err
			}
		}
		n, err := s.w.Write(line)
		s.written += int64(n)
		if err != nil {
			return err
		}
	}
	return s.w.Flush()
}

func (s *segmentWriter) close() error {
	if s.f == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f, s.w = nil, nil
	return err
}

// archiveBudget is the archive-wide byte bound shared by the three sinks.
type archiveBudget struct {
	max  int64
	used atomic.Int64
}

// newArchiveBudget starts from the bytes already in the archive.
func newArchiveBudget(dir string, max int64) *archiveBudget {
	b := &archiveBudget{max: max}
	if segs, err := ListSegments(dir); err == nil {
		for _, s := range segs {
			b.used.Add(s.Bytes)
		}
	}
	return b
}

func (b *archiveBudget) take(n int) bool {
	if b == nil || b.max <= 0 {
		return true
	}
	if b.used.Add(int64(n)) > b.max {
		b.used.Add(-int64(n))
		return false
	}
	return true
}

// archiveSink is one signal's archive queue and writer.
type archiveSink struct {
	q      *queue[[]byte]
	w      *segmentWriter
	maxRec int
	budget *archiveBudget
	health *sinkHealth
}

func newArchiveSink(hs *healthSet, dir, signal string, lim ArchiveLimits, budget *archiveBudget) *archiveSink {
	h := hs.add("archive."+signal, signal)
	w := newSegmentWriter(dir, signal, lim.SegmentBytes)
	return &archiveSink{
		w: w, maxRec: lim.MaxRecordBytes, health: h, budget: budget,
		q: newQueue(h, lim.QueueRecords, lim.QueueBytes, 256, archiveLinger, w.writeBatch),
	}
}

// archiveLinger batches the archive's writes: an agent turn ends several
// spans, logs and metric points within milliseconds, and writing each as
// it comes cost the turn a write and a worker wakeup apiece. The archive
// is diagnostic and off the durable path; flush and shutdown cut the wait
// short, so nothing is lost at exit.
const archiveLinger = 50 * time.Millisecond

// put admits one serialized line (ending in '\n') without blocking.
func (a *archiveSink) put(line []byte) {
	if len(line) > a.maxRec {
		a.health.drop(DropOversize, 1)
		return
	}
	if !a.budget.take(len(line)) {
		a.health.drop(DropArchiveFull, 1)
		return
	}
	a.q.offer(line, len(line))
}

func (a *archiveSink) flush(ctx context.Context) error { return a.q.flush(ctx) }

func (a *archiveSink) shutdown(ctx context.Context) error {
	err := a.q.close(ctx)
	if cerr := a.w.close(); err == nil {
		err = cerr
	}
	return err
}
