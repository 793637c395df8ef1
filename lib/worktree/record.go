package worktree

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// States of a worktree, as its events say.
const (
	// StateActive: the worktree holds a change nobody accepted or
	// rejected yet.
	StateActive = "active"
	// StateAccepted: the change was applied to the main tree; the
	// worktree stays for reference until reject or a purge removes it.
	StateAccepted = "accepted"
	// StateRejected: the worktree and its branch were removed unapplied.
	StateRejected = "rejected"
	// StateRemoved: the worktree was removed after accept or by a purge.
	StateRemoved = "removed"
)

// Strategy is the workspace strategy a worktree task records (§21.1).
const Strategy = "isolated_worktree"

// Record is one worktree as the store knows it.
type Record struct {
	Binding
	Session string `json:"session"`
	State   string `json:"state"`
	// Tasks are the tasks that ran in the worktree: the one that created
	// it, then its repair follow-ups, in order.
	Tasks []string `json:"tasks"`
	// Accepted is the diff id of the accepted change ("" until then).
	Accepted string `json:"accepted_diff_id,omitempty"`
}

// Latest is the last task that ran in the worktree.
func (r Record) Latest() string { return r.Tasks[len(r.Tasks)-1] }

// CreatedData is the body of worktree.created.
type CreatedData struct {
	Strategy string `json:"strategy"`
	Binding
}

// AttachedData is the body of worktree.attached on a repair task.
type AttachedData struct {
	Strategy     string `json:"strategy"`
	WorktreeTask string `json:"worktree_task"`
	Binding
	Feedback string `json:"feedback"`
}

// RepairData is the body of worktree.repair on the worktree's task.
type RepairData struct {
	FollowUp string `json:"follow_up"`
	Feedback string `json:"feedback"`
}

// AcceptedData is the body of worktree.accepted.
type AcceptedData struct {
	DiffID string `json:"diff_id"`
	Files  []File `json:"files"`
}

// RemovedData is the body of worktree.rejected and worktree.removed.
type RemovedData struct {
	Branch string `json:"branch"`
	Reason string `json:"reason"`
}

// events is the pattern of every worktree event type.
var events = "worktree.*"

// Lookup returns the worktree task ran in: its own, or the one a repair
// follow-up was attached to.
func Lookup(ctx context.Context, q store.Queries, task string) (Record, error) {
	t, err := q.GetTask(ctx, task)
	if err != nil {
		return Record{}, err
	}
	var attached *AttachedData
	if _, err := q.EachEvent(ctx, store.EventQuery{Task: task, Type: core.EvWorktreeAttached}, func(ev core.Event) error {
		var a AttachedData
		if json.Unmarshal(ev.Data, &a) == nil {
			attached = &a
		}
		return nil
	}); err != nil {
		return Record{}, err
	}
	if attached != nil && attached.WorktreeTask != task {
		if t, err = q.GetTask(ctx, attached.WorktreeTask); err != nil {
			return Record{}, err
		}
	}
	return replay(ctx, q, t)
}

// replay folds the worktree events of its creating task t.
func replay(ctx context.Context, q store.Queries, t core.Task) (Record, error) {
	rec := Record{Session: t.SessionID}
	found := false
	_, err := q.EachEvent(ctx, store.EventQuery{Task: t.ID, Type: events}, func(ev core.Event) error {
		switch ev.Type {
		case core.EvWorktreeCreated:
			var c CreatedData
			if err := json.Unmarshal(ev.Data, &c); err != nil {
				return core.Wrap(err, core.CodeStorageError, "the worktree.created event of task "+t.ID+" is unreadable").
					WithHint("run 'fluzo-store check'")
			}
			rec.Binding, rec.State, rec.Tasks, found = c.Binding, StateActive, []string{t.ID}, true
		case core.EvWorktreeRepair:
			var r RepairData
			if json.Unmarshal(ev.Data, &r) == nil && r.FollowUp != "" {
				rec.Tasks = append(rec.Tasks, r.FollowUp)
			}
		case core.EvWorktreeAccepted:
			var a AcceptedData
			json.Unmarshal(ev.Data, &a)
			rec.State, rec.Accepted = StateAccepted, a.DiffID
		case core.EvWorktreeRejected:
			rec.State = StateRejected
		case core.EvWorktreeRemoved:
			rec.State = StateRemoved
		}
		return nil
	})
	if err != nil {
		return rec, err
	}
	if !found {
		return rec, core.Errorf(core.CodeInvalidRequest, "task %s did not run in a worktree", t.ID).
			WithHint("only tasks started with 'fluzo-agent run --worktree' have one; see 'fluzo-store tasks'")
	}
	return rec, nil
}

// Append records one worktree event on task in its session and returns
// it as committed.
func Append(ctx context.Context, st *store.Store, session, task, typ string, data any) (core.Event, error) {
	body, err := json.Marshal(data)
	if err != nil {
		return core.Event{}, core.Wrap(err, core.CodeInternal, "cannot encode the "+typ+" event")
	}
	var ev core.Event
	err = st.Write(ctx, func(tx *store.Tx) error {
		ev, err = tx.Append(core.Event{Type: typ, Session: session, Task: task, Data: body})
		return err
	})
	return ev, err
}
