package agent

import (
	"context"
	"os"
	"strconv"
	"testing"
)

// An owner's task starts its local fluzo-tool holding the owner's
// workspace lock, so the server's lock keeper keeps the lock held should
// the owner be killed, until every command it started is gone
// (TestDaemonDiesWithOwnerAndServerKilledTogether proves the keeper
// itself). Here: while a task's backend runs, another process — the
// keeper — has the owner's lock file open; none did when the owner
// started its backend without it.
func TestOwnersToolServerHoldsTheWorkspaceLock(t *testing.T) {
	dir := toolServerRepo(t)
	owner, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	lock := ownerLock(t, owner.Root)
	if others := holders(lock); len(others) != 0 {
		t.Fatalf("before any task, processes %v already hold %s", others, lock)
	}
	_, cleanup, err := owner.runner(context.Background(), &TaskOptions{Request: "anything", NoVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	others := holders(lock)
	cleanup()
	if len(others) == 0 {
		t.Fatalf("the task's tool server was started without the owner's lock: no other process holds %s", lock)
	}
}

// holders are the processes other than this one with path open.
func holders(path string) []int {
	var out []int
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		fds, _ := os.ReadDir("/proc/" + p.Name() + "/fd")
		for _, fd := range fds {
			if target, _ := os.Readlink("/proc/" + p.Name() + "/fd/" + fd.Name()); target == path {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}
