package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/worktree"
)

// Port queries and the remaining task commands. Each is read-only except
// resume and revoke_grant.

// subscribe answers with a snapshot: the tasks, the running task, the
// global event cursor and, per session, the seq of its last committed
// event. Every event committed later follows on the port as a line.
// Live events are not held back while the snapshot is taken, so one may
// arrive just before the ack: a client keeps every event whose seq is
// above the snapshot's seq for its session and drops the others. With
// "after" (a cursor from an earlier snapshot or page) the ack also holds
// the first page of events committed since, for a client resuming a
// subscription.
func (p *Port) subscribe(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		After *int64 `json:"after,omitempty"`
		Limit int    `json:"limit,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if err := checkPaging(a.Limit, a.After); err != nil {
		return nil, err
	}
	tasks, err := p.allTasks(ctx)
	if err != nil {
		return nil, err
	}
	seqs := map[string]int64{}
	cursor, err := p.Owner.Store.EachEvent(ctx, store.EventQuery{Limit: store.MaxPage}, func(ev core.Event) error {
		seqs[ev.Session] = ev.Seq
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"tasks": tasks, "running": p.Owner.running(), "cursor": cursor, "seqs": seqs}
	if a.After != nil {
		page, err := p.Owner.Store.Events(ctx, store.EventQuery{AfterPos: *a.After, Limit: a.Limit})
		if err != nil {
			return nil, err
		}
		out["events"], out["next"], out["more"] = page.Events, page.Next, page.More
	}
	return out, nil
}

// eventsArgs select one page of events: filters, and either the cursor
// of the previous page (after) or, for a gap in one session's live
// stream, the last seq the client holds (after_seq, with session).
type eventsArgs struct {
	core.Command
	Session  string `json:"session,omitempty"`
	Task     string `json:"task,omitempty"`
	Type     string `json:"type,omitempty"`
	After    int64  `json:"after,omitempty"`
	AfterSeq int64  `json:"after_seq,omitempty"`
	Limit    int    `json:"limit,omitempty"`
}

// events returns one bounded page of stored events in commit order.
func (p *Port) events(ctx context.Context, raw []byte) (any, error) {
	var a eventsArgs
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if err := checkPaging(a.Limit, &a.After); err != nil {
		return nil, err
	}
	if a.AfterSeq < 0 || (a.AfterSeq > 0 && a.Session == "") {
		return nil, core.Errorf(core.CodeInvalidRequest, "after_seq must be a non-negative seq of one session").
			WithHint(`seq counts per session: send "session":"ses_..." with "after_seq"`).With("field", "after_seq")
	}
	page, err := p.Owner.Store.Events(ctx, store.EventQuery{Session: a.Session, Task: a.Task, Type: a.Type, AfterPos: a.After, AfterSeq: a.AfterSeq, Limit: a.Limit})
	if err != nil {
		return nil, err
	}
	return map[string]any{"events": page.Events, "next": page.Next, "more": page.More}, nil
}

// checkPaging rejects a negative limit or cursor; limits above
// store.MaxPage are capped by the store, so a page is always bounded.
func checkPaging(limit int, after *int64) error {
	if limit < 0 {
		return core.Errorf(core.CodeInvalidRequest, "limit must not be negative, got %d", limit).
			WithHint("omit limit for %d events per page; at most %d", store.DefaultPage, store.MaxPage).With("field", "limit")
	}
	if after != nil && *after < 0 {
		return core.Errorf(core.CodeInvalidRequest, "after must be a cursor returned by subscribe or events, got %d", *after).
			WithHint("start from 0").With("field", "after")
	}
	return nil
}

// task returns one task with its attempts and their operations.
func (p *Port) task(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task string `json:"task"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	t, err := p.Owner.Store.GetTask(ctx, a.Task)
	if err != nil {
		return nil, err
	}
	attempts, err := p.Owner.Store.ListAttempts(ctx, a.Task)
	if err != nil {
		return nil, err
	}
	ops := map[string][]core.Operation{}
	for _, at := range attempts {
		list, err := p.Owner.Store.ListOperations(ctx, at.ID)
		if err != nil {
			return nil, err
		}
		ops[at.ID] = list
	}
	grants, err := p.Owner.Store.ListGrants(ctx, a.Task)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"task": t, "attempts": attempts, "operations": ops, "grants": grants}
	// A task that ran in a worktree says which, and whether its change
	// still waits for review.
	if rec, err := worktree.Lookup(ctx, p.Owner.Store.Queries, a.Task); err == nil {
		out["worktree"] = rec
	}
	return out, nil
}

// settings returns the effective configuration with provenance (it holds
// no credentials: .fluzo only references them).
func (p *Port) settings(ctx context.Context, raw []byte) (any, error) {
	var a struct{ core.Command }
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	return p.settingsAnswer(), nil
}

// capacity returns the model/pool admission state of this process.
func (p *Port) capacity(ctx context.Context, raw []byte) (any, error) {
	var a struct{ core.Command }
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	return map[string]any{"pools": p.Owner.admission.Status()}, nil
}

// revokeGrant ends a grant of the running task: it no longer matches, and
// the revocation is recorded.
func (p *Port) revokeGrant(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Grant string `json:"grant"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	g, err := p.Owner.Store.GetGrant(ctx, a.Grant)
	if err != nil {
		return nil, err
	}
	if g.State != core.GrantIssued {
		return nil, core.Errorf(core.CodeInvalidRequest, "grant %s is already %s; only an issued grant can be revoked", a.Grant, g.State).
			WithHint("the grants of a task are listed by the task query").With("grant", a.Grant)
	}
	if gate := p.Owner.gate(); gate != nil {
		gate.dropGrant(a.Grant)
	}
	j := &storeJournal{S: p.Owner.Store, Emit: func(ev core.Event) { p.Emit(ev) }}
	err = j.write(ctx, p.Owner.running(), func(tx *store.Tx, add func(core.Event, error) error) error {
		_, ev, err := tx.SetGrantState(a.Grant, core.GrantRevoked, "")
		return add(ev, err)
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"grant": a.Grant, "state": core.GrantRevoked}, nil
}

// resume starts a new attempt of an interrupted or blocked task.
func (p *Port) resume(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task     string   `json:"task"`
		Allow    []string `json:"allow,omitempty"`
		Verify   string   `json:"verify,omitempty"`
		NoVerify bool     `json:"no_verify,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	// Answer a task that cannot be resumed in the ack, not in a result:
	// the attempt's own check stays authoritative.
	t, err := p.Owner.Store.GetTask(ctx, a.Task)
	if err != nil {
		return nil, err
	}
	if t.State != core.TaskBlocked && t.State != core.TaskFailed {
		return nil, core.Errorf(core.CodeInvalidRequest, "task %s is %s; only blocked, interrupted or failed tasks can be resumed", a.Task, t.State).
			WithHint(`send start_task for new work`).With("task", a.Task)
	}
	return p.launch(func(opts TaskOptions) Result {
		opts.Allow, opts.Verify, opts.NoVerify = a.Allow, a.Verify, a.NoVerify
		return p.Owner.Resume(context.WithoutCancel(ctx), a.Task, opts)
	})
}

func (p *Port) allTasks(ctx context.Context) ([]core.Task, error) {
	sessions, err := p.Owner.Store.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	out := []core.Task{}
	for _, s := range sessions {
		ts, err := p.Owner.Store.ListTasks(ctx, s.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}
