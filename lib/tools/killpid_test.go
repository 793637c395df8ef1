package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKillByPIDOnlyReachesOwnedGroups: while fluzo-tool runs a child, a
// kill aimed at a process it does not own (an unrelated process, the test
// itself) is refused and that process lives on; a kill aimed at the
// child's own pid ends it.
func TestKillByPIDOnlyReachesOwnedGroups(t *testing.T) {
	root := t.TempDir()
	c := newClient(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stranger := exec.Command("sleep", "60")
	if err := stranger.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stranger.Process.Kill(); stranger.Wait() }()
	done := callAsync(ctx, t, c, "shell", map[string]any{"script": "echo $$ > pid; exec sleep 60"})
	child, _ := strconv.Atoi(strings.TrimSpace(string(waitForFile(t, filepath.Join(root, "pid")))))
	for _, pid := range []int{stranger.Process.Pid, os.Getpid()} {
		if err := c.KillPID(ctx, pid); err == nil || !strings.Contains(err.Error(), "does not belong") {
			t.Fatalf("kill of unowned pid %d while a child runs: %v", pid, err)
		}
	}
	if err := stranger.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the unrelated process was signalled: %v", err)
	}
	if err := c.KillPID(ctx, child); err != nil {
		t.Fatalf("kill of the owned child %d: %v", child, err)
	}
	var out ProcessResult
	if err := (<-done).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Killed || out.Signal != "SIGKILL" {
		t.Fatalf("owned child after kill: %+v", out.Outcome)
	}
}
