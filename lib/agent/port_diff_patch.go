package agent

import (
	"context"
	"encoding/json"
	"os"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/worktree"
)

// Bounds of one diff window (the backend's).
const (
	defaultPatchWindow = tools.DefaultPatchWindow
	maxPatchWindow     = tools.MaxPatchWindow
)

// PatchWindow is one window of a path's unified diff against the task's
// baseline commit (HEAD when the task began): hunk lines from Offset, and
// the whole diff's line and +/− counts, read by the tool backend.
type PatchWindow = tools.PatchWindow

func checkWindow(a diffArgs) error {
	switch {
	case a.Path == "" && (a.Offset != 0 || a.Limit != 0):
		return core.Errorf(core.CodeInvalidRequest, "diff offset and limit page one path's diff, and no path was sent").
			WithHint(`add "path": one of the summary's changed or pre-existing paths`).With("field", "path")
	case a.Offset < 0:
		return core.Errorf(core.CodeInvalidRequest, "diff offset must not be negative, got %d", a.Offset).WithHint("start from 0").With("field", "offset")
	case a.Limit < 0 || a.Limit > maxPatchWindow:
		return core.Errorf(core.CodeInvalidRequest, "diff limit must be between 0 and %d lines, got %d", maxPatchWindow, a.Limit).
			WithHint("omit limit for %d lines per window", defaultPatchWindow).With("field", "limit")
	}
	return nil
}

// patchWindow reads one window of a.Path's diff from the tool backend
// the task's files are behind (see reads). Only a path the summary lists can be asked for: the query never
// reads another file.
func (p *Port) patchWindow(ctx context.Context, summary json.RawMessage, a diffArgs) (*PatchWindow, error) {
	var s struct {
		HeadBefore  string   `json:"head_before"`
		PreExisting []string `json:"pre_existing"`
		Changed     []struct {
			Path string `json:"path"`
		} `json:"changed"`
	}
	if err := json.Unmarshal(summary, &s); err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "the task's diff summary could not be read")
	}
	listed := false
	for _, c := range s.Changed {
		listed = listed || c.Path == a.Path
	}
	for _, pre := range s.PreExisting {
		listed = listed || pre == a.Path
	}
	if !listed {
		return nil, core.Errorf(core.CodeNotFound, "%s is not in task %s's diff", a.Path, a.Task).
			WithHint("ask for the summary first and send one of its paths").With("field", "path")
	}
	q, done, err := p.Owner.reads(ctx, a.Task)
	if err != nil {
		return nil, err
	}
	defer done()
	var w PatchWindow
	if err := q.Query(ctx, tools.QueryDiffPatch, tools.DiffPatchArgs{Head: s.HeadBefore, Path: a.Path, Offset: a.Offset, Limit: a.Limit}, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// reads is the backend to read task's files through outside its own
// attempt. They are in its worktree while that exists (a worktree task
// is always local; once accepted and removed, its change is in the main
// tree), else in the workspace the configured backend serves. The running
// task's backend answers when it is rooted there too; otherwise one is
// started for the question: the configured remote backend, or the local
// server in process (the same confined server code, read-only queries
// only). done releases it.
func (w *Owner) reads(ctx context.Context, task string) (querier, func(), error) {
	root, err := w.readRoot(ctx, task)
	if err != nil {
		return nil, nil, err
	}
	w.active.mu.Lock()
	running, runningTask := w.active.tools, w.active.refs.Task
	w.active.mu.Unlock()
	if running != nil {
		if at, err := w.readRoot(ctx, runningTask); err == nil && at == root {
			return running, func() {}, nil
		}
	}
	if root == w.Root {
		if spec := w.toolBackend(w.toolServerEnv(os.Environ())); spec.Remote {
			tc, err := startToolServer(ctx, spec)
			if err != nil {
				return nil, nil, err
			}
			return tc, func() { tc.Close() }, nil
		}
	}
	c, err := tools.NewLocal(ctx, tools.Options{Root: root})
	if err != nil {
		return nil, nil, err
	}
	return &toolClient{C: c}, func() { c.Close() }, nil
}

// readRoot is the directory task's files are in: its worktree while that
// exists, else the workspace. A rejected worktree's change is gone.
func (w *Owner) readRoot(ctx context.Context, task string) (string, error) {
	rec, err := worktree.Lookup(ctx, w.Store.Queries, task)
	if err != nil {
		return w.Root, nil // not a worktree task
	}
	switch {
	case rec.State == worktree.StateRejected:
		return "", core.Errorf(core.CodeNotFound, "the worktree of task %s was rejected: its change is gone", rec.Task).
			WithHint("start a new task with 'fluzo-agent run --worktree'")
	case worktree.Exists(w.Root, rec.Binding):
		return rec.Path(w.Root), nil
	case rec.Accepted != "":
		return w.Root, nil
	}
	return "", core.Errorf(core.CodeNotFound, "the worktree of task %s is missing (%s)", rec.Task, rec.Rel).
		WithHint("it was removed outside Fluzo; start a new task with 'fluzo-agent run --worktree'")
}
