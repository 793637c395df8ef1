package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Port queries and the remaining task commands. Each is read-only except
// resume and revoke_grant.

// subscribe answers with a snapshot (tasks, the running task) and the
// cursor of the last committed event: every later event follows on the
// port. A client that sees a seq gap subscribes again to resync.
func (p *Port) subscribe(ctx context.Context, raw []byte) (any, error) {
	var a struct{ core.Command }
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	tasks, err := p.allTasks(ctx)
	if err != nil {
		return nil, err
	}
	cursor := int64(0)
	for {
		page, err := p.Owner.Store.Events(ctx, store.EventQuery{AfterPos: cursor, Limit: store.MaxPage})
		if err != nil {
			return nil, err
		}
		cursor = page.Next
		if !page.More {
			break
		}
	}
	return map[string]any{"tasks": tasks, "running": p.Owner.Running(), "cursor": cursor}, nil
}

// events returns one page of stored events after a cursor.
func (p *Port) events(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Session string `json:"session,omitempty"`
		Task    string `json:"task,omitempty"`
		Type    string `json:"type,omitempty"`
		After   int64  `json:"after,omitempty"`
		Limit   int    `json:"limit,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	page, err := p.Owner.Store.Events(ctx, store.EventQuery{Session: a.Session, Task: a.Task, Type: a.Type, AfterPos: a.After, Limit: a.Limit})
	if err != nil {
		return nil, err
	}
	return map[string]any{"events": page.Events, "next": page.Next, "more": page.More}, nil
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
	return map[string]any{"task": t, "attempts": attempts, "operations": ops, "grants": grants}, nil
}

// settings returns the effective configuration with provenance (it holds
// no credentials: .fluzo only references them).
func (p *Port) settings(ctx context.Context, raw []byte) (any, error) {
	var a struct{ core.Command }
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	return map[string]any{"settings": p.Owner.Config.Values()}, nil
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
	if gate := p.Owner.Gate(); gate != nil {
		gate.DropGrant(a.Grant)
	}
	var evs []core.Event
	err := p.Owner.Store.Write(ctx, func(tx *store.Tx) error {
		_, ev, err := tx.SetGrantState(a.Grant, core.GrantRevoked, "")
		evs = append(evs[:0], ev)
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, ev := range evs {
		p.Emit(ev)
	}
	return map[string]any{"grant": a.Grant, "state": core.GrantRevoked}, nil
}

// resume starts a new attempt of an interrupted or blocked task.
func (p *Port) resume(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task  string   `json:"task"`
		Allow []string `json:"allow,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	return p.launch(func(opts TaskOptions) Result {
		opts.Allow = a.Allow
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
