package store

import (
	"context"
	"os"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func TestFixtureShapeAndCheck(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	res, err := s.Fixture(ctx, FixtureSpec{Seed: 7, Sessions: 2, Messages: 10, Events: 100, ArtifactBytes: 3<<20 + 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 100 || res.Messages != 10 || res.Artifacts != 4 || res.ArtifactBytes != 3<<20+5 || len(res.Sessions) != 2 {
		t.Fatalf("fixture = %+v", res)
	}
	sums, err := s.ListSessionSummaries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, sum := range sums {
		if !sum.Synthetic {
			t.Fatalf("fixture session not labelled synthetic: %+v", sum)
		}
		total += sum.Events
	}
	if total != 100 {
		t.Fatalf("stored %d events", total)
	}
	plan, _ := s.PlanPurge(ctx, PurgeSelect{Session: res.Sessions[0]})
	if len(plan.Shared) != 1 {
		t.Fatalf("fixture has no shared artifact: %+v", plan)
	}
	_, err = s.Fixture(ctx, FixtureSpec{Seed: 7, Sessions: 1})
	wantCode(t, err, core.CodeInvalidRequest)
	for _, f := range Check(ctx, ws) {
		if f.Status != StatusOK {
			t.Fatalf("check on a healthy store: %+v", f)
		}
	}
}

func TestCheckFindsDamage(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	res, err := s.Fixture(ctx, FixtureSpec{Seed: 1, Sessions: 1, Events: 40, ArtifactBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, "DELETE FROM events WHERE session_id = ? AND seq = 3", res.Sessions[0]); err != nil {
		t.Fatal(err)
	}
	refs, _ := s.ListArtifacts(ctx, res.Sessions[0])
	os.Remove(ws.ArtifactPath(refs[0].SHA256))
	os.Chmod(ws.Database(), 0o644)
	failed := map[string]bool{}
	for _, f := range Check(ctx, ws) {
		if f.Status == StatusFail {
			failed[f.Check] = true
		}
	}
	for _, want := range []string{"event_sequence", "artifacts", "permissions"} {
		if !failed[want] {
			t.Fatalf("check missed %s: %v", want, failed)
		}
	}
}
