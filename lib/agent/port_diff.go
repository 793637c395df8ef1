package agent

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

func (t *activeTask) setDiff(diff func(context.Context, []string) (json.RawMessage, error)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.diff = diff
}

// liveDiff returns the diff function of task when it is the running one.
func (t *activeTask) liveDiff(task string) func(context.Context, []string) (json.RawMessage, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.refs.Task == "" || t.refs.Task != task {
		return nil
	}
	return t.diff
}

// diff answers a task's diff summary: computed now against the task's
// baseline while it runs ("live":true; no attribution of who wrote a
// path), otherwise the summary recorded when its last attempt ended.
func (p *Port) diff(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task string `json:"task"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Task == "" {
		return nil, core.Errorf(core.CodeInvalidRequest, "diff needs a task").WithHint(`send "task":"tsk_..."`).With("field", "task")
	}
	if live := p.Owner.active.liveDiff(a.Task); live != nil {
		d, err := live(ctx, nil)
		if err != nil {
			return nil, err
		}
		return map[string]any{"task": a.Task, "live": true, "diff": d}, nil
	}
	if _, err := p.Owner.Store.GetTask(ctx, a.Task); err != nil {
		return nil, err
	}
	var last *core.Event
	_, err := p.Owner.Store.EachEvent(ctx, store.EventQuery{Task: a.Task, Type: core.EvDiffSummary, Limit: store.MaxPage}, func(ev core.Event) error {
		last = &ev
		return nil
	})
	if err != nil {
		return nil, err
	}
	if last == nil {
		return nil, core.Errorf(core.CodeNotFound, "task %s has no diff summary: none of its attempts ended", a.Task).
			WithHint("ask again when the task has a result, or resume it")
	}
	return map[string]any{"task": a.Task, "live": false, "attempt": last.Attempt, "diff": last.Data}, nil
}
