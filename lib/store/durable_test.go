package store

import (
	"bytes"
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// The durable counter counts committed transactions only (a rolled-back
// one costs no sync) and the artifact path's three fsyncs.
func TestDurableCountsCommitsAndArtifactFsyncs(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	before := s.Durable()
	if _, err := s.Append(ctx, core.Event{Type: core.EvTaskCreated}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendBatch(ctx, []core.Event{{Type: core.EvTaskCreated}, {Type: core.EvTaskCreated}}); err != nil {
		t.Fatal(err)
	}
	s.Write(ctx, func(tx *Tx) error { return core.Errorf(core.CodeFailed, "roll back") })
	if got := s.Durable().Sub(before); got != (DurableCounts{Commits: 2}) {
		t.Fatalf("after two commits and a rollback: %+v", got)
	}
	if _, err := s.PutArtifact(ctx, bytes.NewReader([]byte("x")), "text/plain"); err != nil {
		t.Fatal(err)
	}
	if got := s.Durable().Sub(before); got != (DurableCounts{Commits: 2, Fsyncs: 3}) || got.Syncs() != 5 {
		t.Fatalf("after an artifact (file + shard + directory): %+v", got)
	}
}

// The attempt scope cache saves a join per transition, but a purged
// attempt is not found through it.
func TestAttemptScopeCacheForgetsPurgedAttempts(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, task := seedTask(t, s)
	att := core.Attempt{TaskID: task}
	if err := s.Write(ctx, func(tx *Tx) error { _, err := tx.StartAttempt(&att); return err }); err != nil {
		t.Fatal(err)
	}
	newOp := func() error {
		return s.Write(ctx, func(tx *Tx) error {
			_, err := tx.CreateOperation(&core.Operation{AttemptID: att.ID, Tool: "view", CallID: "c", Args: []byte(`{}`)})
			return err
		})
	}
	if err := newOp(); err != nil {
		t.Fatal(err)
	}
	if sc, ok := s.scopes[att.ID]; !ok || sc.session != ses || sc.task != task {
		t.Fatalf("scope not kept after commit: %+v", s.scopes)
	}
	if _, err := s.Purge(ctx, PurgeSelect{Session: ses}); err != nil {
		t.Fatal(err)
	}
	if err := newOp(); core.CodeOf(err) != core.CodeNotFound {
		t.Fatalf("an operation of a purged attempt: %v", err)
	}
}
