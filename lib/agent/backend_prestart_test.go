package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// toolServerRepo is a workspace whose owner starts this test binary as its
// fluzo-tool (ownerLock names the lock file a running tool server's lock
// keeper holds: holders tells whether one runs).
func toolServerRepo(t *testing.T) (dir string) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	bin := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "fluzo-tool")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir = newRepo(t, map[string]string{"README": "x\n", ".gitignore": ".fluzodrive/\n"})
	writeFiles(t, dir, map[string]string{".fluzo": "schema_version = 1\n\n[models.coder]\nbase_url = \"http://127.0.0.1:1\"\nmodel = \"sim\"\n"})
	return dir
}

func ownerLock(t *testing.T, root string) string {
	t.Helper()
	lock, err := filepath.EvalSymlinks(filepath.Join(root, ".fluzodrive", "owner.lock"))
	if err != nil {
		t.Fatal(err)
	}
	return lock
}

// eventuallyUnheld waits for every tool server holding lock to be gone
// (a closed server's keeper exits once its commands have).
func eventuallyUnheld(t *testing.T, lock, what string) {
	t.Helper()
	for range 500 {
		if len(holders(lock)) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: processes %v still hold the workspace lock", what, holders(lock))
}

func TestAnInPlaceTaskTakesTheToolServerStartedAtOpen(t *testing.T) {
	dir := toolServerRepo(t)
	owner, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true, PrestartBackend: true})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	lock := ownerLock(t, owner.Root)
	<-owner.prestarted.done
	if len(holders(lock)) == 0 {
		t.Fatal("no tool server runs once the owner is open: none was started beside the store's open")
	}
	started := owner.prestarted.tc
	r, cleanup, err := owner.runner(context.Background(), &TaskOptions{Request: "anything", NoVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tools != started {
		t.Fatal("the in-place task started a tool server of its own instead of taking the one started at open")
	}
	cleanup()
	eventuallyUnheld(t, lock, "after the task closed its tool server")
}

func TestATaskInAWorktreeDropsTheToolServerStartedAtOpen(t *testing.T) {
	dir := toolServerRepo(t)
	owner, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true, PrestartBackend: true})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	<-owner.prestarted.done
	started := owner.prestarted.tc
	r, cleanup, err := owner.runner(context.Background(), &TaskOptions{Request: "anything", NoVerify: true, Worktree: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	tc, ok := r.Tools.(*toolClient)
	if !ok || tc == started {
		t.Fatal("the worktree task used the tool server started for the workspace root")
	}
	if tc.hello.Root == owner.Root {
		t.Fatalf("the worktree task's tool server serves %s, the workspace root", tc.hello.Root)
	}
	started.mu.Lock()
	closed := started.quit == nil
	started.mu.Unlock()
	if !closed {
		t.Fatal("the tool server started at open was left running beside the worktree task's")
	}
}

func TestAnOwnerThatFailsToOpenEndsTheToolServerItStarted(t *testing.T) {
	dir := toolServerRepo(t)
	// A first owner creates the drive; then the store is replaced by a
	// file that is not a database, which the next open refuses.
	first, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true})
	if err != nil {
		t.Fatal(err)
	}
	root := first.Root
	first.Close()
	db := filepath.Join(root, ".fluzodrive", "state.sqlite3")
	if err := os.WriteFile(db, []byte("this is not a SQLite database, and it is long enough to be looked at"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true, PrestartBackend: true}); err == nil {
		t.Fatal("an owner opened a store that is not a database")
	}
	eventuallyUnheld(t, ownerLock(t, root), "after the owner's open failed")
}

func TestClosingAnOwnerEndsAToolServerNoTaskTook(t *testing.T) {
	dir := toolServerRepo(t)
	owner, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true, PrestartBackend: true})
	if err != nil {
		t.Fatal(err)
	}
	lock := ownerLock(t, owner.Root)
	<-owner.prestarted.done
	if len(holders(lock)) == 0 {
		t.Fatal("no tool server was started at open")
	}
	owner.Close()
	eventuallyUnheld(t, lock, "after the owner closed")
}
