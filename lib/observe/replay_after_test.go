package observe

import (
	"context"
	"testing"
)

// A page of a timeline read from a seq holds exactly the entries the
// whole replay has after it, in the same order: paging changes where the
// read starts, never what is shown.
func TestReplayAfterIsTheTailOfTheReplay(t *testing.T) {
	h := newHistory(t)
	ctx := context.Background()
	var all []Entry
	if err := Replay(ctx, h.s, h.task, func(e Entry) error { all = append(all, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(all) < 3 {
		t.Fatalf("the history is too short for the test: %d entries", len(all))
	}
	for cut := range all {
		after := all[cut].Seq
		var tail []Entry
		if err := ReplayAfter(ctx, h.s, h.task, after, func(e Entry) error { tail = append(tail, e); return nil }); err != nil {
			t.Fatal(err)
		}
		want := all[cut+1:]
		if len(tail) != len(want) {
			t.Fatalf("after seq %d: %d entries, want %d", after, len(tail), len(want))
		}
		for i := range want {
			if tail[i] != want[i] {
				t.Fatalf("after seq %d, entry %d: %+v, want %+v", after, i, tail[i], want[i])
			}
		}
	}
}
