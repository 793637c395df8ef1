package store

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// TestWALStaysBounded writes ~6 MiB of event data in 300 commits and
// samples the -wal file after every commit: it never exceeds
// WALCheckpointBytes plus a margin for the commit that crossed it, and
// Close truncates it to zero even while a reader keeps the store open.
func TestWALStaysBounded(t *testing.T) {
	ctx := context.Background()
	s, ws := openTemp(t)
	reader, err := OpenReadOnly(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	payload, _ := json.Marshal(map[string]string{"text": strings.Repeat("x", 1000)})
	const commits, perCommit = 300, 20
	var peak, data int64
	for i := 0; i < commits; i++ {
		evs := make([]core.Event, perCommit)
		for j := range evs {
			evs[j] = core.Event{Type: core.EvTaskCreated, Data: payload}
			data += int64(len(payload))
		}
		if _, err := s.AppendBatch(ctx, evs); err != nil {
			t.Fatal(err)
		}
		// An idle reader that queries between commits must not pin the log.
		if i%50 == 0 {
			if _, err := reader.Events(ctx, EventQuery{Limit: 1}); err != nil {
				t.Fatal(err)
			}
		}
		if fi, err := os.Stat(ws.Database() + "-wal"); err == nil {
			peak = max(peak, fi.Size())
		}
	}
	const bound = WALCheckpointBytes + WALCheckpointBytes/2
	t.Logf("wrote %d bytes of event data in %d commits; -wal peaked at %d bytes (bound %d)", data, commits, peak, bound)
	if peak > bound {
		t.Fatalf("-wal reached %d bytes for %d bytes of data; want at most %d", peak, data, bound)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(ws.Database() + "-wal")
	if err != nil {
		t.Fatalf("the reader is still open, so the -wal file should remain (truncated): %v", err)
	}
	if fi.Size() != 0 {
		t.Fatalf("-wal is %d bytes after Close; want 0", fi.Size())
	}
}

// TestWALPinnedByReader: a reader holding one read transaction keeps the
// log from restarting. Commits go on without waiting on it at every
// commit (checkpoints back off as the log grows), and once the reader
// ends the next commits bring the log back under the bound.
func TestWALPinnedByReader(t *testing.T) {
	ctx := context.Background()
	s, ws := openTemp(t)
	pin := rawDB(t, ws.Database())
	defer pin.Close()
	tx, err := pin.Begin()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]string{"text": strings.Repeat("z", 1000)})
	write := func(commits int) {
		for i := 0; i < commits; i++ {
			evs := make([]core.Event, 20)
			for j := range evs {
				evs[j] = core.Event{Type: core.EvTaskCreated, Data: payload}
			}
			if _, err := s.AppendBatch(ctx, evs); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := time.Now()
	write(250)
	pinned := time.Since(start)
	walSize := func() int64 {
		fi, err := os.Stat(ws.Database() + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	grown := walSize()
	if grown <= WALTruncateBytes {
		t.Fatalf("setup: the pinned log only reached %d bytes", grown)
	}
	// Every attempt that cannot finish costs a checkpoint pass, and past
	// WALTruncateBytes a walTruncateWait for the reader: passive attempts
	// must come once per walRetryBytes of growth, TRUNCATE ones once per
	// doubling — not once per commit.
	if max := int(grown/walRetryBytes) + 8; s.walCheckpoints > max {
		t.Fatalf("%d checkpoint attempts for a %d-byte pinned log; want at most %d", s.walCheckpoints, grown, max)
	}
	tx.Rollback()
	write(40)
	after := walSize()
	t.Logf("pinned: -wal grew to %d bytes in %v (%d checkpoint attempts); after the reader ended: %d bytes", grown, pinned, s.walCheckpoints, after)
	if after > WALCheckpointBytes+WALCheckpointBytes/2 {
		t.Fatalf("-wal is %d bytes after the reader ended; want it back under the bound", after)
	}
}
