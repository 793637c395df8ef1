package agent

import (
	"context"
	"sort"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// recoveredEvents returns the events restart recovery committed, so they
// reach the stream like every other durable event. Recovery changes
// records in one transaction, and every event of a transaction carries
// its timestamp: for each task it touched, they are the task's newest
// events.
func recoveredEvents(ctx context.Context, st *store.Store, rep store.RecoveryReport) []core.Event {
	tasks := map[string]bool{}
	for _, t := range rep.Tasks {
		tasks[t] = true
	}
	for _, id := range rep.Operations {
		if op, err := st.GetOperation(ctx, id); err == nil {
			if at, err := st.GetAttempt(ctx, op.AttemptID); err == nil {
				tasks[at.TaskID] = true
			}
		}
	}
	var out []core.Event
	for t := range tasks {
		var evs []core.Event
		st.EachEvent(ctx, store.EventQuery{Task: t}, func(ev core.Event) error {
			evs = append(evs, ev)
			return nil
		})
		if len(evs) == 0 {
			continue
		}
		last := evs[len(evs)-1].TS
		for _, ev := range evs {
			if ev.TS.Equal(last) {
				out = append(out, ev)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Session != out[j].Session {
			return out[i].Session < out[j].Session
		}
		return out[i].Seq < out[j].Seq
	})
	return out
}
