package store

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// TestGrantsExpireWhenTheirTaskEnds: once and task grants still issued
// when their task completes or is cancelled (the terminal states; a failed
// task may be resumed) are expired in the
// same transaction, each with a grant.expired audit event; consumed
// grants keep their state and standing grants are untouched.
func TestGrantsExpireWhenTheirTaskEnds(t *testing.T) {
	for _, end := range []core.TaskState{core.TaskCompleted, core.TaskCancelled} {
		t.Run(string(end), func(t *testing.T) {
			s, _ := openTemp(t)
			ctx := context.Background()
			ses, task := seedTask(t, s)
			once := core.Grant{Scope: core.GrantOnce, Spec: "exec:cargo test", Source: "user", TaskID: task}
			whole := core.Grant{Scope: core.GrantTask, Spec: "exec:make", Source: "user", TaskID: task}
			used := core.Grant{Scope: core.GrantOnce, Spec: "exec:ls", Source: "user", TaskID: task}
			standing := core.Grant{Scope: core.GrantStanding, Spec: "exec:true", Source: "config"}
			err := s.Write(ctx, func(tx *Tx) error {
				for _, g := range []*core.Grant{&once, &whole, &used, &standing} {
					if _, err := tx.IssueGrant(g); err != nil {
						return err
					}
				}
				if _, _, err := tx.SetGrantState(used.ID, core.GrantConsumed, ""); err != nil {
					return err
				}
				path := []core.TaskState{core.TaskReady, core.TaskRunning}
				if end == core.TaskCancelled {
					path = []core.TaskState{core.TaskReady, core.TaskRunning, core.TaskStopping}
				}
				for _, st := range append(path, end) {
					if _, _, err := tx.SetTaskState(task, st, "test"); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]core.GrantState{once.ID: core.GrantExpired, whole.ID: core.GrantExpired, used.ID: core.GrantConsumed}
			grants, err := s.ListGrants(ctx, task)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range grants {
				if g.State != want[g.ID] {
					t.Errorf("grant %s (%s) is %s, want %s", g.ID, g.Spec, g.State, want[g.ID])
				}
			}
			if g, _ := s.GetGrant(ctx, standing.ID); g.State != core.GrantIssued {
				t.Errorf("standing grant became %s", g.State)
			}
			page, err := s.Events(ctx, EventQuery{Session: ses, Type: core.EvGrantExpired})
			if err != nil {
				t.Fatal(err)
			}
			evs := page.Events
			expired := map[string]bool{}
			for _, ev := range evs {
				var d map[string]any
				json.Unmarshal(ev.Data, &d)
				if ev.Task != task || d["reason"] != "task "+string(end) {
					t.Errorf("expiry event %+v data %v", ev, d)
				}
				expired[d["grant"].(string)] = true
			}
			if len(evs) != 2 || !expired[once.ID] || !expired[whole.ID] {
				t.Fatalf("grant.expired events %d (%v), want one for each unused task grant", len(evs), expired)
			}
		})
	}
}

// Only a once grant is used up by an operation: consuming it twice, or
// consuming a task grant at all, is refused and changes nothing.
func TestOnlyOnceGrantsAreConsumedOnce(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	_, task := seedTask(t, s)
	once := core.Grant{Scope: core.GrantOnce, Spec: "exec:cargo test", Source: "user", TaskID: task}
	whole := core.Grant{Scope: core.GrantTask, Spec: "exec:make", Source: "user", TaskID: task}
	err := s.Write(ctx, func(tx *Tx) error {
		for _, g := range []*core.Grant{&once, &whole} {
			if _, err := tx.IssueGrant(g); err != nil {
				return err
			}
		}
		_, _, err := tx.SetGrantState(once.ID, core.GrantConsumed, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{once.ID, whole.ID} {
		err := s.Write(ctx, func(tx *Tx) error { _, _, err := tx.SetGrantState(id, core.GrantConsumed, ""); return err })
		if core.CodeOf(err) != core.CodeIllegalTransition {
			t.Errorf("consuming %s again: %v, want illegal_transition", id, err)
		}
	}
	if g, _ := s.GetGrant(ctx, whole.ID); g.State != core.GrantIssued {
		t.Errorf("task grant became %s", g.State)
	}
}
