package worktree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// recorded makes a workspace store holding one task that created a
// worktree, as the owner's StartTask records it, and returns the closed
// store's workspace root, the task's record and a second task of the
// same session that ran in the worktree as a repair.
func recorded(t *testing.T) (root string, b Binding, session, followUp string) {
	t.Helper()
	root = repo(t, map[string]string{"a.txt": "one\n", "gone.txt": "bye\n"})
	ws, err := store.ResolveWorkspace(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnsureDrive(ctx, ws); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	task := newTask()
	if b, err = Create(ctx, root, task); err != nil {
		t.Fatal(err)
	}
	followUp = newTask()
	err = st.Write(ctx, func(tx *store.Tx) error {
		s := core.Session{Title: "t"}
		if _, err := tx.CreateSession(&s); err != nil {
			return err
		}
		session = s.ID
		for _, id := range []string{task, followUp} {
			if _, err := tx.CreateTask(&core.Task{ID: id, SessionID: s.ID, Request: "x"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range []struct {
		task, typ string
		data      any
	}{
		{task, core.EvWorktreeCreated, CreatedData{Strategy: Strategy, Binding: b}},
		{followUp, core.EvWorktreeAttached, AttachedData{Strategy: Strategy, WorktreeTask: task, Binding: b, Feedback: "more"}},
		{task, core.EvWorktreeRepair, RepairData{FollowUp: followUp, Feedback: "more"}},
	} {
		if _, err := Append(ctx, st, session, ev.task, ev.typ, ev.data); err != nil {
			t.Fatal(err)
		}
	}
	return root, b, session, followUp
}

func openWriter(t *testing.T, root string) *Writer {
	t.Helper()
	w, err := OpenWriter(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestLookupFollowsARepairToItsWorktree(t *testing.T) {
	root, b, session, followUp := recorded(t)
	w := openWriter(t, root)
	for _, id := range []string{b.Task, followUp} {
		rec, err := Lookup(ctx, w.Store.Queries, id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Binding != b || rec.Session != session || rec.State != StateActive || len(rec.Tasks) != 2 || rec.Latest() != followUp {
			t.Fatalf("%s: %+v", id, rec)
		}
	}
}

func TestWriterAcceptThenRejectRecordsEachStep(t *testing.T) {
	root, b, _, followUp := recorded(t)
	write(t, b.Path(root), map[string]string{"a.txt": "two\n"})
	w := openWriter(t, root)
	if _, ch, err := w.Accept(ctx, followUp, ""); err != nil || len(ch.Files) != 1 {
		t.Fatalf("accept: %+v %v", ch, err)
	}
	rec, err := Lookup(ctx, w.Store.Queries, b.Task)
	if err != nil || rec.State != StateAccepted || len(rec.Accepted) != 64 {
		t.Fatalf("after accept: %+v %v", rec, err)
	}
	if _, _, err := w.Accept(ctx, b.Task, ""); core.CodeOf(err) != core.CodeInvalidRequest {
		t.Fatalf("second accept: %v", err)
	}
	if rec, err = w.Reject(ctx, b.Task); err != nil || rec.State != StateRemoved {
		t.Fatalf("reject after accept: %+v %v", rec, err)
	}
	if Exists(root, b) {
		t.Fatal("the worktree is still there")
	}
	if _, err := w.Reject(ctx, b.Task); core.CodeOf(err) != core.CodeNotFound {
		t.Fatalf("second reject: %v", err)
	}
}

func TestWriterIsTheOwnerLock(t *testing.T) {
	root, _, _, _ := recorded(t)
	ws, err := store.ResolveWorkspace(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	own, err := admit.AcquireOwner(ws.Drive(), admit.OwnerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Release()
	if _, err := OpenWriter(ctx, root); core.CodeOf(err) != core.CodeWorkspaceBusy {
		t.Fatalf("err = %v", err)
	}
}

func TestSweepKeepsAWorktreeAwaitingReviewAndRemovesTheAbandoned(t *testing.T) {
	root, b, _, _ := recorded(t)
	orphan := filepath.Join(root, RelPath(newTask()))
	if err := os.MkdirAll(orphan, 0o700); err != nil {
		t.Fatal(err)
	}
	w := openWriter(t, root)
	found, err := w.Sweep(ctx)
	if err != nil || len(found) != 1 || found[0].Reason != ReasonTaskGone || !found[0].Removed {
		t.Fatalf("sweep: %+v %v", found, err)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatal("the orphan directory is still there")
	}
	if !Exists(root, b) {
		t.Fatal("the worktree awaiting review was removed")
	}
	write(t, b.Path(root), map[string]string{"a.txt": "two\n"})
	if _, _, err := w.Accept(ctx, b.Task, ""); err != nil {
		t.Fatal(err)
	}
	if found, err = w.Sweep(ctx); err != nil || len(found) != 1 || found[0].Reason != ReasonAccepted {
		t.Fatalf("sweep after accept: %+v %v", found, err)
	}
	rec, err := Lookup(ctx, w.Store.Queries, b.Task)
	if err != nil || rec.State != StateRemoved || Exists(root, b) {
		t.Fatalf("after the sweep: %+v %v", rec, err)
	}
}
