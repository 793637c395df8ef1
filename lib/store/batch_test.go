package store

import (
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// TestBatchAppendIsOneCommit: a streaming checkpoint appends many events
// in one transaction, so a batch with one bad event commits none of them
// and the session's sequence stays gap-free for the next batch.
func TestBatchAppendIsOneCommit(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, _ := seedTask(t, s)
	before, err := s.Events(ctx, EventQuery{Session: ses})
	if err != nil {
		t.Fatal(err)
	}
	n := len(before.Events)
	bad := []core.Event{{Type: "chunk.a", Session: ses}, {Type: "chunk.b", Session: ses}, {Session: ses}}
	if _, err := s.AppendBatch(ctx, bad); core.CodeOf(err) != core.CodeInvalidRequest {
		t.Fatalf("batch with an untyped event: %v", err)
	}
	after, err := s.Events(ctx, EventQuery{Session: ses})
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Events) != n {
		t.Fatalf("a failed batch left %d of its events committed", len(after.Events)-n)
	}
	good, err := s.AppendBatch(ctx, bad[:2])
	if err != nil {
		t.Fatal(err)
	}
	if good[0].Seq != int64(n)+1 || good[1].Seq != int64(n)+2 {
		t.Fatalf("seqs after a failed batch: %d, %d; want %d, %d", good[0].Seq, good[1].Seq, n+1, n+2)
	}
}
