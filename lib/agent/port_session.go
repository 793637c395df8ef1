package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Sessions on the port. A client whose protocol names a session before
// its first task (the ACP bridge: session/new answers a session id) asks
// for an empty one, then starts its tasks in it with start_task's
// "session"; session/load reads one back with "session".

// newSession creates an empty session and answers its id.
func (p *Port) newSession(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Title string `json:"title,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	s := core.Session{Title: a.Title}
	j := &storeJournal{S: p.Owner.Store, Emit: func(ev core.Event) { p.Emit(ev) }}
	if err := j.write(ctx, Refs{}, func(tx *store.Tx, add func(core.Event, error) error) error { return add(tx.CreateSession(&s)) }); err != nil {
		return nil, err
	}
	return map[string]any{"session": s.ID}, nil
}

// session answers one session and its tasks, oldest first; not_found
// when the store has no such session.
func (p *Port) session(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Session string `json:"session"`
	}
	if err := core.DecodeCommand(raw, &a, "session"); err != nil {
		return nil, err
	}
	s, err := p.Owner.Store.GetSession(ctx, a.Session)
	if err != nil {
		return nil, err
	}
	tasks, err := p.Owner.Store.ListTasks(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	if tasks == nil {
		tasks = []core.Task{} // an empty session answers [], not null
	}
	return map[string]any{"session": s, "tasks": tasks}, nil
}

// checkSession makes start_task's "session" name a stored session, so a
// typo is a not_found error rather than a storage constraint failure.
func (p *Port) checkSession(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	_, err := p.Owner.Store.GetSession(ctx, id)
	return err
}
