package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// TestStreams100kEventsInBoundedPages proves the paging contract on a
// 100k-event history: every page holds at most the requested (and at most
// MaxPage) events, pages resume exactly where the last one ended, and the
// whole history arrives once, in order.
func TestStreams100kEventsInBoundedPages(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, _ := seedTask(t, s)
	const total, batch = 100_000, 10_000
	for i := 0; i < total; i += batch {
		evs := make([]core.Event, batch)
		for j := range evs {
			evs[j] = core.Event{Type: fmt.Sprintf("bulk.%d", (i+j)%3), Session: ses}
		}
		if _, err := s.AppendBatch(ctx, evs); err != nil {
			t.Fatal(err)
		}
	}
	const pageSize = 777
	q := EventQuery{Session: ses, Limit: pageSize}
	seen, pages := 0, 0
	last := int64(0)
	for {
		page, err := s.Events(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Events) > pageSize || cap(page.Events) > pageSize {
			t.Fatalf("page held %d rows (cap %d), limit %d", len(page.Events), cap(page.Events), pageSize)
		}
		for _, ev := range page.Events {
			if ev.Seq != last+1 {
				t.Fatalf("seq %d after %d", ev.Seq, last)
			}
			last = ev.Seq
		}
		seen += len(page.Events)
		pages++
		q.AfterPos = page.Next
		if !page.More {
			break
		}
	}
	if want := total + 2; seen != want {
		t.Fatalf("streamed %d events, want %d", seen, want)
	}
	if pages < seen/pageSize {
		t.Fatalf("only %d pages for %d events", pages, seen)
	}
	huge, err := s.Events(ctx, EventQuery{Session: ses, Limit: 1 << 30})
	if err != nil || len(huge.Events) != MaxPage || !huge.More {
		t.Fatalf("an oversized limit returned %d events (more=%v, %v); want MaxPage", len(huge.Events), huge.More, err)
	}
	filtered, err := s.Events(ctx, EventQuery{Session: ses, Type: "bulk.1", AfterSeq: total - 10, Limit: 10})
	if err != nil || len(filtered.Events) == 0 {
		t.Fatalf("filtered page = %v", err)
	}
	for _, ev := range filtered.Events {
		if ev.Type != "bulk.1" || ev.Seq <= total-10 {
			t.Fatalf("filter leaked %s seq %d", ev.Type, ev.Seq)
		}
	}
}
