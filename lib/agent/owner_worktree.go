package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/worktree"
)

// taskWorktree is how one task uses an isolated worktree (§21.1
// isolated_worktree): one made for it, or an earlier task's it repairs.
// StartTask records it with the task, so the journal says where the task
// ran from its first event on.
type taskWorktree struct {
	created  *worktree.Binding
	attached *worktree.Record
	feedback string
}

// binding is the worktree the task runs in.
func (tw *taskWorktree) binding() worktree.Binding {
	if tw.created != nil {
		return *tw.created
	}
	return tw.attached.Binding
}

// toolReadable are the extra paths a worktree task's commands may read:
// their sandbox, rooted at the worktree, may read (never write) the
// repository's shared git directory, which git there needs (§21.1:
// worktrees isolate files, not the shared metadata).
func (w *Owner) toolReadable(ctx context.Context, t *TaskOptions) ([]string, error) {
	if !t.inWorktree {
		return nil, nil
	}
	dir, err := worktree.CommonDir(ctx, w.Root)
	if err != nil {
		return nil, err
	}
	return []string{dir}, nil
}

// preexisting is the policy gate's test for pre-existing user changes.
// A task worktree starts as a clean checkout and holds only its tasks'
// changes (a repair's or a resumed attempt's earlier ones), never the
// user's, whose tree is elsewhere and untouched: continuing them needs no
// approval. Version checks still guard every edit.
func (t *TaskOptions) preexisting(base func(string) bool) func(string) bool {
	if t.inWorktree {
		return func(string) bool { return false }
	}
	return base
}

// taskRoot is the directory a task's tools, baseline, context and
// verification use: the workspace root, or the task's worktree. A
// worktree made here is removed again by undo when the task never starts.
func (w *Owner) taskRoot(ctx context.Context, t *TaskOptions) (root string, undo func(), err error) {
	undo = func() {}
	defer func() { t.inWorktree = err == nil && root != w.Root }()
	switch {
	case t.resuming:
		root, err = w.resumeRoot(ctx, t.resumeTask)
		return root, undo, err
	case t.repair != nil:
		t.taskID = core.NewID(core.KindTask)
		t.worktree = &taskWorktree{attached: t.repair, feedback: t.feedback}
		return t.repair.Path(w.Root), undo, nil
	case t.Worktree:
		t.taskID = core.NewID(core.KindTask)
		b, err := worktree.Create(ctx, w.Root, t.taskID)
		if err != nil {
			return "", undo, err
		}
		t.worktree = &taskWorktree{created: &b}
		return b.Path(w.Root), func() { worktree.Remove(context.WithoutCancel(ctx), w.Root, b) }, nil
	}
	return w.Root, undo, nil
}

// resumeRoot is where task ran: a resumed worktree task continues in its
// worktree, which must still hold an unapplied change.
func (w *Owner) resumeRoot(ctx context.Context, task string) (string, error) {
	rec, err := worktree.Lookup(ctx, w.Store.Queries, task)
	if err != nil {
		// Not a worktree task (or no such task: resume says so itself).
		return w.Root, nil
	}
	if err := worktree.Live(rec); err != nil {
		return "", err
	}
	if !worktree.Exists(w.Root, rec.Binding) {
		return "", core.Errorf(core.CodeInterrupted, "the worktree of task %s is missing (%s)", task, rec.Rel).
			WithHint("it was removed outside Fluzo; start a new task with 'fluzo-agent run --worktree'")
	}
	return rec.Path(w.Root), nil
}

// nameWorktree sets the worktree a resumed task ran in on its result.
func (w *Owner) nameWorktree(ctx context.Context, task string, res *Result) {
	if rec, err := worktree.Lookup(ctx, w.Store.Queries, task); err == nil {
		b := rec.Binding
		res.Worktree = &b
	}
}

// Repair continues the worktree of task with the reviewer's feedback, as
// a follow-up task in the same session and worktree: the original task
// is terminal and keeps its own history, and the follow-up's events say
// which worktree and feedback it continues (worktree.attached on it,
// worktree.repair on the worktree's task). The verification command is
// the original's unless t gives one.
func (w *Owner) Repair(ctx context.Context, task, feedback string, t TaskOptions) Result {
	fail := func(err error) Result {
		return Result{V: core.WireVersion, Type: "result", Status: string(core.CodeOf(err)), Task: task, Reason: "setup_failed", Error: core.AsError(err)}
	}
	rec, err := worktree.Lookup(ctx, w.Store.Queries, task)
	if err != nil {
		return fail(err)
	}
	if err := worktree.Live(rec); err != nil {
		return fail(err)
	}
	if !worktree.Exists(w.Root, rec.Binding) {
		return fail(core.Errorf(core.CodeNotFound, "the worktree of task %s is missing (%s)", rec.Task, rec.Rel).
			WithHint("it was removed outside Fluzo; start a new task with 'fluzo-agent run --worktree'"))
	}
	orig, err := w.Store.GetTask(ctx, rec.Task)
	if err != nil {
		return fail(err)
	}
	latest, err := w.Store.GetTask(ctx, rec.Latest())
	if err != nil {
		return fail(err)
	}
	t.Session, t.Request = rec.Session, repairRequest(rec.Task, orig.Request, feedback)
	if t.Verify == "" && !t.NoVerify {
		t.Verify = latest.Verify
	}
	t.repair, t.feedback, t.Worktree = &rec, feedback, false
	return w.Run(ctx, t)
}

// repairRequest is the follow-up task's request: the feedback, with the
// request it repairs for context.
func repairRequest(task, original, feedback string) string {
	return fmt.Sprintf("Repair the change of task %s in this worktree.\nOriginal request: %s\nReview feedback: %s", task, original, feedback)
}

// recordWorktree appends the task's worktree events in StartTask's
// transaction.
func recordWorktree(tx *store.Tx, add func(core.Event, error) error, refs Refs, tw *taskWorktree) error {
	if tw == nil {
		return nil
	}
	ev := func(task, typ string, data any) error {
		body, err := json.Marshal(data)
		if err != nil {
			return core.Wrap(err, core.CodeInternal, "cannot encode the "+typ+" event")
		}
		e := core.Event{Type: typ, Session: refs.Session, Task: task, Data: body}
		if task == refs.Task {
			e.Attempt = refs.Attempt
		}
		return add(tx.Append(e))
	}
	if tw.created != nil {
		return ev(refs.Task, core.EvWorktreeCreated, worktree.CreatedData{Strategy: worktree.Strategy, Binding: *tw.created})
	}
	rec := tw.attached
	if err := ev(refs.Task, core.EvWorktreeAttached, worktree.AttachedData{Strategy: worktree.Strategy, WorktreeTask: rec.Task, Binding: rec.Binding, Feedback: tw.feedback}); err != nil {
		return err
	}
	return ev(rec.Task, core.EvWorktreeRepair, worktree.RepairData{FollowUp: refs.Task, Feedback: tw.feedback})
}
