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

// sessions answers one bounded window of the workspace's sessions, newest
// first, each with its tasks counted by state; "match" filters by title
// or ID. A listing of any history reads one window.
func (p *Port) sessions(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Match  string `json:"match,omitempty"`
		Offset int    `json:"offset,omitempty"`
		Limit  int    `json:"limit,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Offset < 0 || a.Limit < 0 || a.Limit > store.MaxSessionPage {
		return nil, core.Errorf(core.CodeInvalidRequest, "sessions: offset must not be negative and limit must be 0..%d", store.MaxSessionPage).
			WithHint("page with offset and a limit of at most %d", store.MaxSessionPage).With("field", "limit")
	}
	page, err := p.Owner.Store.ListSessionPage(ctx, store.SessionPageQuery{Match: a.Match, Offset: a.Offset, Limit: a.Limit})
	if err != nil {
		return nil, err
	}
	return map[string]any{"sessions": page.Sessions, "offset": a.Offset, "more": page.More}, nil
}

// resumePreview answers what resuming a task would find and drop (the
// revalidation), writing nothing: a front end shows it before it asks.
func (p *Port) resumePreview(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task string `json:"task"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Task == "" {
		return nil, missingTask("resume_preview")
	}
	p.mu.Lock()
	yolo := p.yolo
	p.mu.Unlock()
	pv, err := p.Owner.PreviewResume(ctx, a.Task, yolo)
	if err != nil {
		return nil, err
	}
	return map[string]any{"preview": pv}, nil
}
