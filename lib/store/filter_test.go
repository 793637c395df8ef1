package store

import (
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// TestTypeFilterMatchesCoreMatchType: the SQL translation of a type
// pattern selects exactly the events core.MatchType accepts.
func TestTypeFilterMatchesCoreMatchType(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	types := []string{"task.created", "task.state", "taskx", "operation.intent", "operation.result", "op", "laya.observation", "é.x"}
	var evs []core.Event
	for _, typ := range types {
		evs = append(evs, core.Event{Type: typ})
	}
	if _, err := s.AppendBatch(ctx, evs); err != nil {
		t.Fatal(err)
	}
	patterns := []string{"", "*", "task.*", "task*", "task.created", "operation.*,task.state", " op , laya.* ", "nothing", "é.*", "task.created,*"}
	for _, p := range patterns {
		page, err := s.Events(ctx, EventQuery{Type: p})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, ev := range page.Events {
			got[ev.Type] = true
		}
		for _, typ := range types {
			if want := core.MatchType(p, typ); got[typ] != want {
				t.Errorf("pattern %q, type %q: selected=%v, core.MatchType=%v", p, typ, got[typ], want)
			}
		}
	}
}
