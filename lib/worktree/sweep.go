package worktree

import (
	"context"
	"os"
	"path/filepath"
	"sort"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Abandoned is a worktree a purge removes: nobody can review, accept or
// repair it any more, or its change was already accepted or rejected.
type Abandoned struct {
	Task   string `json:"task"`
	Path   string `json:"path"`
	Branch string `json:"branch"`
	Reason string `json:"reason"`
	// Removed is set once a purge removed it.
	Removed bool `json:"removed,omitempty"`
	// recorded: the task is still in the store, so the removal is
	// recorded on it.
	recorded bool
	session  string
}

// Reasons a worktree is abandoned.
const (
	ReasonTaskGone     = "its task is no longer in the store"
	ReasonTaskPurged   = "its task's session is purged"
	ReasonAccepted     = "its change was accepted"
	ReasonLeftBehind   = "it was rejected or removed, but its directory is still there"
	ReasonUnrecorded   = "its task has no record of it"
	reasonPurgeRemoval = "purged: "
)

// FindAbandoned lists the worktree directories under root's data root
// that a purge removes: their task is not in the store (or its session
// is among purging), or their change was accepted, or a removal was
// interrupted. A worktree with a change still waiting for review is kept.
// It only reads.
func FindAbandoned(ctx context.Context, q store.Queries, root string, purging map[string]bool) ([]Abandoned, error) {
	dir := filepath.Join(root, driveName, DirName)
	if fi, err := os.Lstat(dir); os.IsNotExist(err) {
		return nil, nil
	} else if err == nil && !fi.IsDir() {
		return nil, core.Errorf(core.CodeStorageError, "%s is not a directory (a symbolic link or a file)", filepath.Join(driveName, DirName)).
			WithHint("remove %s; nothing in it is followed", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot list "+filepath.Join(driveName, DirName)).
			WithHint("check the permissions of %s", dir)
	}
	var out []Abandoned
	for _, e := range entries {
		if !e.IsDir() || !core.ValidID(e.Name(), core.KindTask) {
			continue
		}
		a := Abandoned{Task: e.Name(), Path: RelPath(e.Name()), Branch: BranchFor(e.Name())}
		rec, err := Lookup(ctx, q, e.Name())
		switch {
		case core.CodeOf(err) == core.CodeNotFound:
			a.Reason = ReasonTaskGone
		case err != nil && core.CodeOf(err) == core.CodeInvalidRequest:
			// The task exists but never recorded its worktree (it did not
			// start): nothing refers to the directory.
			a.Reason = ReasonUnrecorded
		case err != nil:
			return nil, err
		case purging[rec.Session]:
			a.Reason = ReasonTaskPurged
		case rec.State == StateAccepted:
			a.Reason, a.recorded, a.session = ReasonAccepted, true, rec.Session
		case rec.State == StateRejected || rec.State == StateRemoved:
			a.Reason = ReasonLeftBehind
		default:
			continue
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Task < out[j].Task })
	return out, nil
}

// Sweep removes every abandoned worktree (see FindAbandoned) and its
// branch, recording worktree.removed on a task still in the store. It
// returns what it removed; it stops at the first removal git refuses.
func (w *Writer) Sweep(ctx context.Context) ([]Abandoned, error) {
	found, err := FindAbandoned(ctx, w.Store.Queries, w.Root, nil)
	if err != nil {
		return nil, err
	}
	for i := range found {
		a := &found[i]
		b := Binding{Task: a.Task, Rel: a.Path, Branch: a.Branch}
		if err := Remove(ctx, w.Root, b); err != nil {
			return found[:i], err
		}
		a.Removed = true
		if a.recorded {
			if err := w.record(ctx, Record{Binding: b, Session: a.session}, core.EvWorktreeRemoved, RemovedData{Branch: a.Branch, Reason: reasonPurgeRemoval + a.Reason}); err != nil {
				return found[:i+1], err
			}
		}
	}
	return found, nil
}
