package store

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// TestWritesBeginImmediate: a second writer cannot even start a write
// transaction while the first holds one (BEGIN IMMEDIATE), so no writer
// ever reads a snapshot it later fails to upgrade.
func TestWritesBeginImmediate(t *testing.T) {
	a, ws := openTemp(t)
	ctx := context.Background()
	b, err := Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	holding, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- a.Write(ctx, func(tx *Tx) error {
			if _, err := tx.Append(core.Event{Type: "a.holds"}); err != nil {
				return err
			}
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	ran := false
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err = b.Write(short, func(tx *Tx) error { ran = true; return nil })
	close(release)
	if aErr := <-done; aErr != nil {
		t.Fatal(aErr)
	}
	if err == nil || ran {
		t.Fatalf("second writer began while the first held the lock (ran=%v, err=%v)", ran, err)
	}
	wantCode(t, err, core.CodeStorageError)
	if err := b.Write(ctx, func(tx *Tx) error { _, err := tx.Append(core.Event{Type: "b.after"}); return err }); err != nil {
		t.Fatalf("second writer after release: %v", err)
	}
}

// TestPragmaVerificationRejectsWeakConnections: a connection without WAL
// and synchronous=FULL fails verification with storage_error.
func TestPragmaVerificationRejectsWeakConnections(t *testing.T) {
	s, ws := openTemp(t)
	s.Close()
	db, err := sql.Open(readerDriver, "file:"+ws.Database()+"?_journal_mode=DELETE&_synchronous=NORMAL")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error { return verifyPragmas(dc.(*sqlite3.SQLiteConn)) })
	wantCode(t, err, core.CodeStorageError)
	if core.AsError(err).Details["pragma"] == nil {
		t.Fatalf("error does not name the pragma: %v", err)
	}
}
