package proc

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// MarkToolTree makes every child Start spawns from now on run with
// no_new_privs (fluzo-tool serve calls it). The flag is inherited by every
// descendant, survives execve and setsid and can never be cleared, so it
// marks the whole tool process tree for as long as its processes live: an
// owner that adopts a process with it (after the tool server died) knows
// the process came from a tool tree, not from one of its own children. It
// also means no descendant gains privileges through a setuid program,
// which a sandboxed child must not do anyway.
func MarkToolTree() { markChildren.Store(true) }

// markChildren: set no_new_privs on the forking thread before each spawn.
// The flag is per thread and a child inherits its forking thread's, so a
// process-wide prctl from one goroutine would mark only the children that
// happen to be forked from that thread.
var markChildren atomic.Bool

// forkMarked runs start (an exec.Cmd's Start) on a thread that carries
// no_new_privs when children are marked. Setting it on a pool thread is
// harmless: it only limits what this process's future children can gain.
func forkMarked(start func() error) error {
	if !markChildren.Load() {
		return start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	return start()
}

// noNewPrivs reports whether process pid ("self" for this one) runs with
// no_new_privs, from /proc/PID/status; false when it cannot be read.
func noNewPrivs(pid string) bool {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "NoNewPrivs:"); ok {
			return strings.TrimSpace(v) == "1"
		}
	}
	return false
}

// Strays finds processes this (subreaper) process adopted and their
// descendants, for the caller to end.
type Strays struct {
	// ToolTreeOnly keeps only adopted processes marked by MarkToolTree
	// and living in another session than this process: the owner's view,
	// where its own children (git in a session of its own, the tool
	// server in the owner's session) must be left alone. False counts
	// every adopted process: fluzo-tool's view at exit, when all it ever
	// started were tool children.
	ToolTreeOnly bool
}

// Identifiable reports whether strays can be told from this process's own
// children: in the owner's view, only when the owner itself does not run
// with no_new_privs (an owner started inside another sandbox carries the
// mark itself, and so do its own children).
func (s Strays) Identifiable() bool { return !s.ToolTreeOnly || !noNewPrivs("self") }

// List returns the live strays. Adopted zombies that match are reaped on
// the way, so they do not pile up under a subreaper; only matching ones,
// so that the exit status of a child someone else waits for is never
// taken from it.
func (s Strays) List() []Survivor {
	if !s.Identifiable() {
		return nil
	}
	all := readProcs()
	self := os.Getpid()
	own := all[self]
	var roots []int
	for pid, info := range all {
		if info.ppid != self || isOwnHelper(pid) || !s.adoptedStray(pid, info, own) {
			continue
		}
		if info.state == 'Z' {
			reap(pid)
			continue
		}
		roots = append(roots, pid)
	}
	var out []Survivor
	for pid, info := range all {
		if info.state != 'Z' && info.state != 'X' && descendsAny(all, pid, roots) {
			out = append(out, Survivor{PID: pid, Command: info.comm})
		}
	}
	return out
}

func (s Strays) adoptedStray(pid int, info, own procInfo) bool {
	if !s.ToolTreeOnly {
		return true
	}
	return info.sid != own.sid && noNewPrivs(strconv.Itoa(pid))
}

// End sends SIGKILL to every stray until none is left or wait has
// passed, and returns the ones it ended and the ones still alive. There
// is no graceful step: a stray's request is over and nobody reads its
// output, so what it does next can only be an unrequested change.
func (s Strays) End(wait time.Duration) (ended, alive []Survivor) {
	seen := map[int]bool{}
	deadline := time.Now().Add(wait)
	for {
		left := s.List()
		if len(left) == 0 {
			// None left, so none can fork: no second look. (A run's end
			// makes three of these calls, and a look reads every process's
			// stat on the machine.)
			return ended, nil
		}
		for _, m := range left {
			if !seen[m.PID] {
				seen[m.PID] = true
				ended = append(ended, m)
			}
		}
		frozen := freeze(func() []int {
			var pids []int
			for _, m := range s.List() {
				pids = append(pids, m.PID)
			}
			return pids
		})
		for _, pid := range frozen {
			unix.Kill(pid, unix.SIGKILL)
		}
		if time.Now().After(deadline) {
			return ended, left
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readProcs is how List reads the process table (a seam for counting).
var readProcs = snapshot

// snapshot reads /proc/PID/stat of every process.
func snapshot() map[int]procInfo {
	all := map[int]procInfo{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return all
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if info, ok := readStat(pid); ok {
			all[pid] = info
		}
	}
	return all
}

// freeze sends SIGSTOP to every process list returns, listing again until
// no new one appears (a process may fork until it is stopped), and returns
// them all: signalled afterwards, they receive the signal together, and
// none runs another instruction of its own in between.
func freeze(list func() []int) []int {
	stopped := map[int]bool{}
	var out []int
	for round := 0; round < 64; round++ {
		fresh := false
		for _, pid := range list() {
			if !stopped[pid] {
				stopped[pid] = true
				out = append(out, pid)
				unix.Kill(pid, unix.SIGSTOP)
				fresh = true
			}
		}
		if !fresh {
			break
		}
	}
	return out
}
