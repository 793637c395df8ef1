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

// diffArgs: task alone asks for the summary; path adds one window of
// that path's unified diff (offset and limit in lines), so a client pages
// through a diff of any size holding only one window.
type diffArgs struct {
	core.Command
	Task   string `json:"task"`
	Path   string `json:"path,omitempty"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// diff answers a task's diff summary: computed now against the task's
// baseline while it runs ("live":true; no attribution of who wrote a
// path), otherwise the summary recorded when its last attempt ended. The
// answer carries the task's state and its last verification record, so
// a review shows what was checked and whether the outcome is partial.
func (p *Port) diff(ctx context.Context, raw []byte) (any, error) {
	var a diffArgs
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Task == "" {
		return nil, core.Errorf(core.CodeInvalidRequest, "diff needs a task").WithHint(`send "task":"tsk_..."`).With("field", "task")
	}
	if err := checkWindow(a); err != nil {
		return nil, err
	}
	task, err := p.Owner.Store.GetTask(ctx, a.Task)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"task": a.Task, "state": task.State}
	if live := p.Owner.active.liveDiff(a.Task); live != nil {
		d, err := live(ctx, nil)
		if err != nil {
			return nil, err
		}
		out["live"], out["diff"] = true, d
	} else {
		last, err := p.lastEvent(ctx, a.Task, core.EvDiffSummary)
		if err != nil {
			return nil, err
		}
		if last == nil {
			return nil, core.Errorf(core.CodeNotFound, "task %s has no diff summary: none of its attempts ended", a.Task).
				WithHint("ask again when the task has a result, or resume it")
		}
		out["live"], out["attempt"], out["diff"] = false, last.Attempt, last.Data
	}
	if a.Path != "" {
		w, err := p.patchWindow(ctx, out["diff"].(json.RawMessage), a)
		if err != nil {
			return nil, err
		}
		return map[string]any{"task": a.Task, "state": task.State, "live": out["live"], "patch": w}, nil
	}
	v, err := p.lastEvent(ctx, a.Task, core.EvVerification)
	if err != nil {
		return nil, err
	}
	if v != nil {
		n, err := p.editsAfter(ctx, a.Task, v.Seq)
		if err != nil {
			return nil, err
		}
		out["verification"], out["edits_since_verification"] = v.Data, n
	}
	return out, nil
}

// editsAfter counts the task's successful file edits recorded after seq:
// a verification that ran before them no longer speaks for the workspace
// (while the task runs, the model may edit after a failed check).
func (p *Port) editsAfter(ctx context.Context, task string, seq int64) (int, error) {
	n := 0
	_, err := p.Owner.Store.EachEvent(ctx, store.EventQuery{Task: task, Type: core.EvOperationResult}, func(ev core.Event) error {
		var d struct{ Tool, To string }
		if ev.Seq <= seq || json.Unmarshal(ev.Data, &d) != nil {
			return nil
		}
		if toolKind(d.Tool) == kindEdit && d.To == string(core.OpSucceeded) {
			n++
		}
		return nil
	})
	return n, err
}

// lastEvent is the task's latest event of type typ, or nil.
func (p *Port) lastEvent(ctx context.Context, task, typ string) (*core.Event, error) {
	var last *core.Event
	_, err := p.Owner.Store.EachEvent(ctx, store.EventQuery{Task: task, Type: typ, Limit: store.MaxPage}, func(ev core.Event) error {
		last = &ev
		return nil
	})
	return last, err
}
