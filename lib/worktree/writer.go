package worktree

import (
	"context"
	"os"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Writer holds the workspace's owner lock and its store for the worktree
// operations that change state (accept, reject, purge): one writer per
// workspace holds for them as for a running task, so none can remove or
// apply a worktree a task is editing.
type Writer struct {
	Root  string
	Store *store.Store
	// Emit, when set, receives each event the writer committed (a serve
	// port's subscribers see it like the runtime's own).
	Emit  func(core.Event)
	owner *admit.Owner
}

// OpenWriter takes the owner lock of the workspace containing dir (a
// running owner makes it workspace_busy) and opens its store. It is not
// an owner: it applies no restart rules and only appends worktree events.
func OpenWriter(ctx context.Context, dir string) (*Writer, error) {
	ws, err := store.ResolveWorkspace(ctx, dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(ws.Database()); err != nil {
		return nil, core.Errorf(core.CodeNotFound, "no task has run in %s (there is no store)", ws.Root).
			WithHint("run a task with 'fluzo-agent run --worktree --task TEXT' first")
	}
	own, err := admit.AcquireOwner(ws.Drive(), admit.OwnerOptions{})
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, ws)
	if err != nil {
		own.Release()
		return nil, err
	}
	return &Writer{Root: ws.Root, Store: st, owner: own}, nil
}

// OwnedWriter is the writer of an owner that already holds the lock and
// the store (fluzo-agent serve); Close leaves both to it.
func OwnedWriter(root string, st *store.Store, emit func(core.Event)) *Writer {
	return &Writer{Root: root, Store: st, Emit: emit}
}

// record appends one worktree event and passes it to Emit.
func (w *Writer) record(ctx context.Context, rec Record, typ string, data any) error {
	ev, err := Append(ctx, w.Store, rec.Session, rec.Task, typ, data)
	if err == nil && w.Emit != nil {
		w.Emit(ev)
	}
	return err
}

// Close closes the store and releases the lock (nothing for an
// OwnedWriter).
func (w *Writer) Close() error {
	if w.owner == nil {
		return nil
	}
	err := w.Store.Close()
	if rerr := w.owner.Release(); err == nil {
		err = rerr
	}
	return err
}

// live returns task's worktree when it still holds an unapplied change.
func (w *Writer) live(ctx context.Context, task string) (Record, error) {
	rec, err := Lookup(ctx, w.Store.Queries, task)
	if err != nil {
		return rec, err
	}
	return rec, Live(rec)
}

// Live refuses a worktree whose change was accepted, or that is gone.
func Live(rec Record) error {
	switch rec.State {
	case StateAccepted:
		return core.Errorf(core.CodeInvalidRequest, "the change of task %s was already accepted", rec.Task).
			WithHint("it is in your working tree (git status); 'fluzo-agent reject %s --yes' removes the worktree", rec.Task)
	case StateRejected, StateRemoved:
		return core.Errorf(core.CodeNotFound, "the worktree of task %s was %s", rec.Task, rec.State).
			WithHint("start a new task with 'fluzo-agent run --worktree'")
	}
	return nil
}

// Accept applies task's change to the main tree (see Accept) and records
// worktree.accepted. The worktree stays until reject or a purge.
func (w *Writer) Accept(ctx context.Context, task, expectID string) (Record, Change, error) {
	rec, err := w.live(ctx, task)
	if err != nil {
		return rec, Change{}, err
	}
	ch, err := Accept(ctx, w.Root, rec.Binding, expectID)
	if err != nil {
		return rec, ch, err
	}
	rec.State, rec.Accepted = StateAccepted, ch.ID
	return rec, ch, w.record(ctx, rec, core.EvWorktreeAccepted, AcceptedData{DiffID: ch.ID, Files: ch.Files})
}

// Reject removes task's worktree and branch and records why: rejected
// when its change was never applied, removed after an accept.
func (w *Writer) Reject(ctx context.Context, task string) (Record, error) {
	rec, err := Lookup(ctx, w.Store.Queries, task)
	if err != nil {
		return rec, err
	}
	if rec.State == StateRejected || rec.State == StateRemoved {
		return rec, core.Errorf(core.CodeNotFound, "the worktree of task %s was already %s", rec.Task, rec.State).
			WithHint("nothing is left to remove")
	}
	typ, reason, state := core.EvWorktreeRejected, "rejected by the user", StateRejected
	if rec.State == StateAccepted {
		typ, reason, state = core.EvWorktreeRemoved, "removed after accept", StateRemoved
	}
	if err := Remove(ctx, w.Root, rec.Binding); err != nil {
		return rec, err
	}
	rec.State = state
	return rec, w.record(ctx, rec, typ, RemovedData{Branch: rec.Branch, Reason: reason})
}
