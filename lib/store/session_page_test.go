package store

import (
	"context"
	"testing"
)

// A sessions page is a bounded window, newest first, with each session's
// task states; a search filters before paging.
func TestSessionPagesAreBoundedWindows(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.Fixture(ctx, FixtureSpec{Seed: 3, Sessions: 5, Events: 60, Running: 1}); err != nil {
		t.Fatal(err)
	}
	page, err := s.ListSessionPage(ctx, SessionPageQuery{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Sessions) != 2 || !page.More {
		t.Fatalf("first page: %d sessions, more %v; want 2 and more", len(page.Sessions), page.More)
	}
	if page.Sessions[0].Title != "synthetic session 5" || page.Sessions[0].Tasks["running"] != 1 {
		t.Fatalf("newest first with its task states: %+v", page.Sessions[0])
	}
	if page.Sessions[1].Tasks["completed"] != 1 {
		t.Fatalf("task states of a completed session: %+v", page.Sessions[1].Tasks)
	}
	last, err := s.ListSessionPage(ctx, SessionPageQuery{Offset: 4, Limit: 2})
	if err != nil || len(last.Sessions) != 1 || last.More || last.Sessions[0].Title != "synthetic session 1" {
		t.Fatalf("last page: %+v, %v", last, err)
	}
	found, err := s.ListSessionPage(ctx, SessionPageQuery{Match: "SESSION 3"})
	if err != nil || len(found.Sessions) != 1 || found.Sessions[0].Title != "synthetic session 3" {
		t.Fatalf("search: %+v, %v", found, err)
	}
	none, err := s.ListSessionPage(ctx, SessionPageQuery{Match: "100%_"})
	if err != nil || len(none.Sessions) != 0 || none.Sessions == nil {
		t.Fatalf("a search matching nothing (LIKE wildcards escaped): %+v, %v", none, err)
	}
	all, _ := s.ListSessionPage(ctx, SessionPageQuery{Limit: 10_000})
	if len(all.Sessions) != 5 {
		t.Fatalf("a limit above the bound still answers: %d", len(all.Sessions))
	}
}
