package store

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

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
