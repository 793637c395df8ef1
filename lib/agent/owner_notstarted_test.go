package agent

import (
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// A run cancelled before its task started (SIGTERM while the owner takes
// its baseline or makes its first write) ends cancelled: what the
// cancellation cut short is not a workspace or store failure. The
// stability cohort found both: not_a_repository from the baseline's git
// status, storage_error from the first write transaction.
func TestRunCancelledBeforeItStartsIsCancelled(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := newRepo(t, map[string]string{"README": "x\n", ".gitignore": ".fluzodrive/\n"})
	writeFiles(t, dir, map[string]string{".fluzo": "schema_version = 1\n\n[models.coder]\nbase_url = \"http://127.0.0.1:1\"\nmodel = \"sim\"\n"})
	owner, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := owner.Run(ctx, TaskOptions{Request: "anything", NoVerify: true})
	if res.Status != string(core.CodeCancelled) || res.Reason != "cancelled" || res.Error == nil || res.Error.Code != core.CodeCancelled {
		t.Fatalf("a run cancelled before it started: %+v (error %+v)", res, res.Error)
	}
}

// A cancellation that lands after the owner's setup, as the task's first
// transaction begins, ends the run cancelled too: the write it cut short
// is no storage failure. Nothing of the task is recorded. The stability
// cohort's cancel variant ended storage_error ("cannot start a write
// transaction") here.
func TestRunCancelledAsItsTaskIsRecordedIsCancelled(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "x\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"done","match":{"messages":2},"respond":{"text":"done"}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := h.runner.Run(ctx, taskStart{Request: "anything", NoVerify: true})
	if res.Status != string(core.CodeCancelled) || res.Reason != "cancelled" || res.Error == nil || res.Error.Code != core.CodeCancelled {
		t.Fatalf("a run cancelled as its task was recorded: %+v (error %+v)", res, res.Error)
	}
	if res.ExitCode() != core.ExitFor(core.CodeCancelled) {
		t.Fatalf("exit %d for a cancelled result", res.ExitCode())
	}
	if n := h.count(core.EvTaskCreated); n != 0 {
		t.Fatalf("%d task.created events recorded by a run cancelled before its task", n)
	}
}
