package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/tools"
)

// startChildServer runs this test binary as "fluzo-tool serve" (see
// TestMain): a real process with the binary's subreaper and markings.
func startChildServer(t *testing.T, root string) *tools.Client {
	t.Helper()
	t.Setenv("FLUZO_TOOL_TEST_AS_BINARY", "1")
	c, err := tools.StartServer(context.Background(), root, os.Args[0], "--grace", "300ms")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitPIDFile waits (bounded) until a child wrote its pid there.
func waitPIDFile(t *testing.T, path string) string {
	t.Helper()
	for i := 0; i < 2000; i++ {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s was never written", path)
	return ""
}

// hostPID is the host pid of the live process in root whose innermost pid
// is inner: a sandboxed command runs in a PID namespace of its own, and
// the $$ it writes is its pid there.
func hostPID(t *testing.T, root, inner string) string {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		status, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(l, "NSpid:"); ok {
				f := strings.Fields(v)
				if cwd, _ := os.Readlink("/proc/" + e.Name() + "/cwd"); len(f) > 0 && f[len(f)-1] == inner && cwd == root {
					return e.Name()
				}
			}
		}
	}
	t.Fatalf("no live process in %s has the pid %s", root, inner)
	return ""
}

// alive reports whether pid runs (a zombie is dead).
func alive(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	return err == nil && !strings.Contains(string(b), ") Z ")
}

// gone waits (bounded, generous for loaded machines) for pid to die; the
// kernel delivers a parent-death signal at once, so only scheduling can
// delay it.
func gone(t *testing.T, pid, what string) {
	t.Helper()
	for i := 0; i < 1000 && alive(pid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(pid) {
		t.Fatalf("%s (pid %s) outlived fluzo-tool", what, pid)
	}
}

// A fluzo-tool that dies, even by SIGKILL with no chance to clean up,
// takes the command it was running with it (parent-death signal).
func TestKilledServerTakesItsChildWithIt(t *testing.T) {
	root := t.TempDir()
	c := startChildServer(t, root)
	args, _ := json.Marshal(map[string]any{"script": "echo $$ >leader.pid; while :; do date >tick; sleep 0.05; done"})
	if _, err := c.Start("shell", args); err != nil {
		t.Fatal(err)
	}
	leader := hostPID(t, root, waitPIDFile(t, filepath.Join(root, "leader.pid")))
	c.KillServer()
	c.Close()
	gone(t, leader, "the command's leader")
}

// Closing fluzo-tool's stdin while a command runs ends the daemon the
// command double-forked into a session of its own: reparented to fluzo-tool (a
// child subreaper), it is found and ended before fluzo-tool exits.
func TestClosedServerEndsDaemonisedGrandchildren(t *testing.T) {
	root := t.TempDir()
	c := startChildServer(t, root)
	// The subshell exits at once: the daemon is nobody's descendant but
	// the subreaper's.
	script := "(setsid sh -c 'echo $$ >daemon.pid; sleep 300' </dev/null >/dev/null 2>&1 &); sleep 300"
	args, _ := json.Marshal(map[string]any{"script": script})
	if _, err := c.Start("shell", args); err != nil {
		t.Fatal(err)
	}
	daemon := hostPID(t, root, waitPIDFile(t, filepath.Join(root, "daemon.pid")))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(daemon) {
		t.Fatalf("the daemon (pid %s) outlived fluzo-tool", daemon)
	}
}

// actAsOwner is this test binary as an owner process: it starts
// "fluzo-tool serve" with a very long grace, has it run a command that
// keeps writing into root, and waits to be killed.
func actAsOwner(root string) int {
	os.Setenv("FLUZO_TOOL_TEST_AS_BINARY", "1")
	// The owner's workspace lock, as admit.AcquireOwner takes it; the
	// server holds a duplicate (its lock keeper).
	lock, err := os.Create(filepath.Join(root, "owner.lock"))
	if err != nil || syscall.Flock(int(lock.Fd()), syscall.LOCK_EX) != nil {
		return 1
	}
	c, err := tools.StartServerHolding(context.Background(), root, os.Args[0], nil, lock, "--grace", "10m")
	if err != nil {
		return 1
	}
	script := os.Getenv("FLUZO_TOOL_TEST_OWNER_SCRIPT")
	if script == "" {
		script = "echo $$ >leader.pid; while :; do date >tick; sleep 0.05; done"
	}
	args, _ := json.Marshal(map[string]any{"script": script})
	if _, err := c.Start("shell", args); err != nil {
		return 1
	}
	select {}
}

// When the owner dies (SIGKILL: the kernel releases its workspace lock at
// that moment), fluzo-tool sees its stdin end with its parent gone and
// stops its commands at once instead of granting them the grace period,
// during which they would write into a workspace nobody holds.
func TestServerWhoseOwnerDiedStopsItsCommandsWithoutGrace(t *testing.T) {
	root := t.TempDir()
	owner := exec.Command(os.Args[0], "-test.run=^$")
	owner.Env = append(os.Environ(), "FLUZO_TOOL_TEST_AS_OWNER="+root)
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	leader := hostPID(t, root, waitPIDFile(t, filepath.Join(root, "leader.pid")))
	owner.Process.Kill()
	owner.Wait()
	// The grace is ten minutes: only the no-grace path ends the command
	// within this (generous) bound.
	for i := 0; i < 6000 && alive(leader); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(leader) {
		syscall.Kill(-mustAtoi(t, leader), syscall.SIGKILL)
		t.Fatalf("the command (pid %s) kept running after its owner died", leader)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The hardest case of "no orphans": the owner and fluzo-tool die at the
// same instant (fluzo-tool stopped first, so it runs no cleanup at all),
// while a command has double-forked a daemon into a session of its own.
// With nobody left to adopt it, only the kernel can end it: the command
// runs in its own PID namespace, whose init (the sandbox launcher) dies
// with fluzo-tool and takes every process of the namespace with it. The
// daemon would write into the workspace 1.5 s later; it must be gone and
// nothing written. And the owner's lock, which the kernel would release
// at the owner's death, stays held (by fluzo-tool's lock keeper) until
// the daemon is gone: no later owner can take the workspace while it
// could still write.
func TestDaemonDiesWithOwnerAndServerKilledTogether(t *testing.T) {
	root := t.TempDir()
	owner := exec.Command(os.Args[0], "-test.run=^$")
	owner.Env = append(os.Environ(), "FLUZO_TOOL_TEST_AS_OWNER="+root,
		"FLUZO_TOOL_TEST_OWNER_SCRIPT=(setsid sh -c 'echo $$ >daemon.pid.tmp; mv daemon.pid.tmp daemon.pid; sleep 1.5; echo late >late.txt' </dev/null >/dev/null 2>&1 &); sleep 300")
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	defer owner.Process.Kill()
	waitPIDFile(t, filepath.Join(root, "daemon.pid"))
	daemons := processesIn(root, "sleep")
	server := childOf(owner.Process.Pid)
	if server == 0 || len(daemons) == 0 {
		t.Fatalf("no fluzo-tool (%d) or no daemon (%v) found", server, daemons)
	}
	lock, err := os.Open(filepath.Join(root, "owner.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	syscall.Kill(server, syscall.SIGSTOP)
	owner.Process.Kill()
	syscall.Kill(server, syscall.SIGKILL)
	owner.Wait()
	// The lock must stay held until the tool tree is gone: at the instant
	// it can be taken, no process of the command may be left.
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the owner's lock was never released after the owner and fluzo-tool died")
		}
	}
	for _, pid := range daemons {
		if alive(strconv.Itoa(pid)) {
			t.Errorf("the owner's lock was free while the daemon's process %d still ran", pid)
		}
	}
	time.Sleep(2 * time.Second)
	for _, pid := range daemons {
		if alive(strconv.Itoa(pid)) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the daemon's process %d outlived its owner and fluzo-tool", pid)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "late.txt")); err == nil {
		t.Error("the daemon wrote into the workspace after its owner and fluzo-tool died")
	}
}

// processesIn lists the live processes named comm whose working
// directory is dir.
func processesIn(dir, comm string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
		cwd, _ := os.Readlink("/proc/" + e.Name() + "/cwd")
		if strings.TrimSpace(string(b)) == comm && cwd == dir && alive(e.Name()) {
			out = append(out, pid)
		}
	}
	return out
}

// childOf is a live child of parent (0 when none).
func childOf(parent int) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(parent) && f[0] != "Z" {
			pid, _ := strconv.Atoi(e.Name())
			return pid
		}
	}
	return 0
}
