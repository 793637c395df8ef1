package store

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// openWriter opens ws's store for writing.
func openWriter(t *testing.T, ws Workspace) *Store {
	t.Helper()
	s, err := Open(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func closeWriter(t *testing.T, s *Store) {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func stampExists(ws Workspace) bool {
	_, err := os.Lstat(ws.cleanStampPath())
	return err == nil
}

// expectChecked opens ws for writing and fails with why unless the open
// ran the quick check.
func expectChecked(t *testing.T, ws Workspace, why string) {
	t.Helper()
	s := openWriter(t, ws)
	defer s.Close()
	if !s.quickChecked {
		t.Fatal(why)
	}
}

// cleanlyClosed is a store with some history, closed by its writer.
func cleanlyClosed(t *testing.T) Workspace {
	t.Helper()
	ws := excludedRepo(t)
	s := openWriter(t, ws)
	if !s.quickChecked {
		t.Fatal("a store never closed was not checked at open")
	}
	seedTask(t, s)
	closeWriter(t, s)
	if !stampExists(ws) {
		t.Fatal("a clean close left no stamp")
	}
	return ws
}

func TestACleanCloseLetsTheNextOpenSkipTheQuickCheck(t *testing.T) {
	ws := cleanlyClosed(t)
	s := openWriter(t, ws)
	defer closeWriter(t, s)
	if s.quickChecked {
		t.Fatal("the open checked a store exactly as its writer closed it")
	}
	if stampExists(ws) {
		t.Fatal("the open left the stamp behind: a writer killed now would leave it for the next open")
	}
}

func TestAStoreWrittenSinceItsCleanCloseIsChecked(t *testing.T) {
	ws := cleanlyClosed(t)
	was, err := stampOf(ws.Database())
	if err != nil {
		t.Fatal(err)
	}
	// Zero a b-tree page in place and set the times back: the ctime still
	// moves, and the damage is found at open.
	f, err := os.OpenFile(ws.Database(), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 4096), 4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	mtime := time.Unix(0, was.Mtime)
	if err := os.Chtimes(ws.Database(), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), ws)
	wantCode(t, err, core.CodeStorageError)
	// Trusting the stamp, the open got as far as reading the project
	// record; the check refuses before anything is read.
	if !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("error = %v, want the open's check to refuse a damaged store", err)
	}
}

func TestAWriterThatNeverClosedLeavesTheNextOpenToCheck(t *testing.T) {
	ws := cleanlyClosed(t)
	killed := openWriter(t, ws) // takes the stamp; never closed, as if killed
	defer killed.Close()
	seedTask(t, killed)
	next := openWriter(t, ws)
	defer next.Close()
	if !next.quickChecked {
		t.Fatal("the open after a writer that never closed skipped the check")
	}
}

func TestALogToReplayIsChecked(t *testing.T) {
	ws := cleanlyClosed(t)
	// A writer killed after its commits leaves them in the log, with the
	// main file (and so the stamp's description of it) unchanged.
	if err := os.WriteFile(ws.Database()+"-wal", []byte("frames of a writer that never checkpointed"), FileMode); err != nil {
		t.Fatal(err)
	}
	expectChecked(t, ws, "an open with a log to replay skipped the check")
}

func TestAReplacedStoreIsChecked(t *testing.T) {
	ws := cleanlyClosed(t)
	data, err := os.ReadFile(ws.Database())
	if err != nil {
		t.Fatal(err)
	}
	tmp := ws.Database() + ".copy"
	if err := os.WriteFile(tmp, data, FileMode); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, ws.Database()); err != nil {
		t.Fatal(err)
	}
	expectChecked(t, ws, "an open of another file under the store's name skipped the check")
}

func TestAnUnreadableStampIsChecked(t *testing.T) {
	for name, write := range map[string]func(Workspace) error{
		"garbage": func(ws Workspace) error { return os.WriteFile(ws.cleanStampPath(), []byte("{not json"), FileMode) },
		"symlink": func(ws Workspace) error {
			good, err := os.ReadFile(ws.cleanStampPath())
			if err != nil {
				return err
			}
			other := ws.Root + "/elsewhere.json"
			if err := os.WriteFile(other, good, FileMode); err != nil {
				return err
			}
			os.Remove(ws.cleanStampPath())
			return os.Symlink(other, ws.cleanStampPath())
		},
	} {
		t.Run(name, func(t *testing.T) {
			ws := cleanlyClosed(t)
			if err := write(ws); err != nil {
				t.Fatal(err)
			}
			s := openWriter(t, ws)
			defer s.Close()
			if !s.quickChecked {
				t.Fatal("the open trusted a stamp it could not read as its own")
			}
			if _, err := os.Lstat(ws.cleanStampPath()); err == nil {
				t.Fatal("the unusable stamp was left behind")
			}
		})
	}
}

func TestAReaderHoldingTheLogUpLeavesNoStamp(t *testing.T) {
	ws := excludedRepo(t)
	s := openWriter(t, ws)
	seedTask(t, s)
	r, err := OpenReadOnly(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The reader's open transaction pins the log: the close's TRUNCATE
	// checkpoint cannot finish, so the database lacks what the log holds.
	tx, err := r.DB().BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM sessions").Scan(&n); err != nil {
		t.Fatal(err)
	}
	seedTask(t, s)
	closeWriter(t, s)
	if stampExists(ws) {
		t.Fatal("a close whose checkpoint a reader held up left a stamp")
	}
}
