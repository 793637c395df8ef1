package timerslack

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// childSlack starts `cat /proc/self/timerslack_ns` with start, on a thread
// whose own slack is threadSlack, and returns what the child read and the
// thread's slack afterwards.
func childSlack(t *testing.T, threadSlack uint64, start func(*exec.Cmd) error) (child string, after uint64) {
	t.Helper()
	defer onThreadWithSlack(t, threadSlack)()
	var out strings.Builder
	cmd := exec.Command("cat", "/proc/self/timerslack_ns")
	cmd.Stdout = &out
	if err := start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	now, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out.String()), uint64(now)
}

// A child started with Start gets the recorded original slack, not the
// raised slack of the thread that forked it (which a plain Start passes
// on), and the thread keeps its own.
func TestStartGivesTheChildTheOriginalSlack(t *testing.T) {
	defer SetOriginal(Original())
	SetOriginal(70_000)
	if child, after := childSlack(t, 3_000_000, Start); child != "70000" || after != 3_000_000 {
		t.Errorf("child read %s, the thread has %d after; want 70000 and 3000000", child, after)
	}
	// What Start avoids: the fork passes the thread's slack on.
	if child, _ := childSlack(t, 3_000_000, (*exec.Cmd).Start); child != "3000000" {
		t.Errorf("a plain start gave the child %s; the test no longer shows what Start is for", child)
	}
	// Nothing recorded (a binary that never raised its slack): the child
	// inherits, as with a plain start.
	SetOriginal(0)
	if child, _ := childSlack(t, 2_000_000, Start); child != "2000000" {
		t.Errorf("with no original recorded the child read %s, want the thread's 2000000", child)
	}
}

func TestCurrentIsTheThreadsSlack(t *testing.T) {
	defer onThreadWithSlack(t, 1_234_000)()
	if got, err := Current(); err != nil || got != 1_234_000 {
		t.Errorf("Current = %d, %v; want 1234000", got, err)
	}
}

// onThreadWithSlack locks the calling goroutine to its thread and sets the
// thread's slack to ns; the returned function restores both.
func onThreadWithSlack(t *testing.T, ns uint64) (restore func()) {
	t.Helper()
	runtime.LockOSThread()
	prev, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		runtime.UnlockOSThread()
		t.Fatalf("the timer slack cannot be read: %v", err)
	}
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(ns), 0, 0, 0); err != nil {
		runtime.UnlockOSThread()
		t.Fatal(err)
	}
	return func() {
		unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(prev), 0, 0, 0)
		runtime.UnlockOSThread()
	}
}
