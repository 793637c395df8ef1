package proc

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Spec describes one child process.
type Spec struct {
	Argv []string
	// Dir is the working directory; "" keeps fluzo-tool's own.
	Dir string
	// Env is the complete environment (see Build).
	Env          []string
	Timeout      time.Duration
	Grace        time.Duration
	CaptureLimit int
	// AdoptOrphans counts processes reparented to this (subreaper)
	// process as the child's descendants; set it only when the child is
	// the only process the caller runs, and after EnableSubreaper.
	AdoptOrphans bool
	// Prepare, when set, adjusts the child's SysProcAttr before the
	// spawn (the command sandbox adds namespaces there).
	Prepare func(*syscall.SysProcAttr)
	// Reaper says Argv[0] runs the command as its child, as the init of
	// its PID namespace (the sandbox launcher): it gets a control socket
	// on ReaperFD, reports the command's wait status there when the
	// command ends and exits when the socket is closed. The command's end
	// is then the leader's end, and what it left is swept (with grace,
	// and named) before the reaper and its namespace go.
	Reaper bool
	// Track, with Reaper, is given a pidfd of the started reaper before
	// it may start its command (the lock keeper's Track); an error stops
	// it unstarted.
	Track func(pidfd int) error
}

// EnableSubreaper makes the calling process the reaper of orphaned
// descendants (PR_SET_CHILD_SUBREAPER), so a grandchild that double-forks
// into a new session is reparented here instead of to init, where it can
// still be found and stopped. It affects the whole process.
func EnableSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// Survivor is a process whose termination could not be confirmed.
type Survivor struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
}

// Outcome is the honest report of a finished child.
type Outcome struct {
	ExitCode        *int   `json:"exit_code"`
	Signal          string `json:"signal,omitempty"`
	DurationMS      int64  `json:"duration_ms"`
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	StdoutBytes     int64  `json:"stdout_bytes"`
	StderrBytes     int64  `json:"stderr_bytes"`
	StdoutTruncated bool   `json:"stdout_truncated"`
	StderrTruncated bool   `json:"stderr_truncated"`
	TimedOut        bool   `json:"timed_out"`
	Cancelled       bool   `json:"cancelled"`
	Killed          bool   `json:"killed"`
	// Ended lists the processes that outlived the leader (background
	// jobs, daemons, reparented orphans) and were stopped when it ended:
	// nothing a command starts keeps running after its result.
	Ended       []Survivor `json:"ended,omitempty"`
	Unconfirmed []Survivor `json:"unconfirmed,omitempty"`
}

// Process is a running child in its own session and process group.
type Process struct {
	cmd      *exec.Cmd
	pid      int
	spec     Spec
	started  time.Time
	stdout   *capture
	stderr   *capture
	exited   chan struct{}
	exitOnce sync.Once
	// control is a Reaper's socket; reported the command's status it sent.
	control  *os.File
	reported *unix.WaitStatus
	mu       sync.Mutex
	// commandUp: the command itself exists (always, without a reaper);
	// before that, held is the first non-KILL signal sent, delivered
	// once it does.
	commandUp bool
	held      unix.Signal
	timedOut  bool
	cancel    bool
	killed    bool
}

// Start spawns spec.Argv[0] (already resolved) directly — never through a
// shell. A failed spawn is reported, not retried another way.
func Start(spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, core.Errorf(core.CodeInvalidRequest, "argv is empty").WithHint("give at least the program to run")
	}
	if spec.Grace <= 0 {
		spec.Grace = 5 * time.Second
	}
	p := &Process{spec: spec, stdout: newCapture(spec.CaptureLimit), stderr: newCapture(spec.CaptureLimit), exited: make(chan struct{})}
	cmd := &exec.Cmd{Path: spec.Argv[0], Args: spec.Argv, Env: spec.Env, Dir: spec.Dir, Stdout: p.stdout, Stderr: p.stderr}
	// Pdeathsig: if fluzo-tool dies (even by SIGKILL) the kernel kills
	// the leader, so no child outlives the server that answers for it.
	// The signal is tied to the forking thread; the Go runtime does not
	// end idle threads, and forkMarked unlocks the one it locks.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if spec.Prepare != nil {
		spec.Prepare(cmd.SysProcAttr)
	}
	// Pipes still held by an escaped descendant must not block the report.
	cmd.WaitDelay = 2 * time.Second
	var theirs *os.File
	pidfd := -1
	if spec.Reaper {
		cmd.SysProcAttr.PidFD = &pidfd
		var err error
		if p.control, theirs, err = controlPair(); err != nil {
			return nil, core.Wrap(err, "spawn_failed", "cannot create the command's control socket: "+err.Error())
		}
		cmd.ExtraFiles = []*os.File{theirs}
	}
	err := forkMarked(cmd.Start)
	if theirs != nil {
		theirs.Close()
	}
	if err != nil {
		p.release()
		return nil, core.Wrap(err, "spawn_failed", "cannot start "+spec.Argv[0]+": "+spawnReason(err)).
			WithHint("check the program path and permissions; fluzo-tool does not retry through a shell")
	}
	p.cmd, p.pid, p.started = cmd, cmd.Process.Pid, time.Now()
	p.commandUp = p.control == nil
	if err := p.letStart(pidfd); err != nil {
		return nil, err
	}
	go p.watchLeader()
	if p.control != nil {
		go p.watchReport()
	}
	return p, nil
}

func spawnReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// PID returns the leader's pid, which is also the process group and
// session id.
func (p *Process) PID() int { return p.pid }

// watchLeader waits for the leader to exit without reaping it, so its pid
// (and therefore the group id) cannot be reused while the group is
// cleaned up.
func (p *Process) watchLeader() {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	p.markExited()
}

func (p *Process) markExited() { p.exitOnce.Do(func() { close(p.exited) }) }

// Owns reports whether pid is the leader or a live member of this child's
// group, session or descendants.
func (p *Process) Owns(pid int) bool {
	if pid == p.pid {
		return true
	}
	for _, m := range members(p.pid, p.spec.AdoptOrphans) {
		if m.pid == pid {
			return true
		}
	}
	return false
}

// Members returns the live processes of the group as survivors.
func (p *Process) Members() []Survivor {
	var out []Survivor
	for _, m := range members(p.pid, p.spec.AdoptOrphans) {
		if m.pid == p.pid {
			select {
			case <-p.exited:
				continue
			default:
			}
		}
		out = append(out, Survivor{PID: m.pid, Command: m.comm})
	}
	return out
}

// signal delivers sig to the group and every member at one instant: all
// are frozen first, then signalled, then (unless killed) continued.
// Signalled one by one, a daemon whose "sleep 5" died first would run its
// next command — "echo late >file" — before its own signal arrived.
//
// A reaper that has not started its command yet would take a SIGTERM
// alone (it handles and ignores it) and then start the command anyway,
// so such a signal is held until the command exists. SIGKILL is never
// held: the reaper dies of it, and its namespace with it.
func (p *Process) signal(sig unix.Signal) {
	if sig != unix.SIGKILL && p.hold(sig) {
		return
	}
	unix.Kill(-p.pid, unix.SIGSTOP)
	frozen := freeze(func() []int {
		var pids []int
		for _, m := range members(p.pid, p.spec.AdoptOrphans) {
			pids = append(pids, m.pid)
		}
		return pids
	})
	unix.Kill(-p.pid, sig)
	for _, pid := range frozen {
		unix.Kill(pid, sig)
	}
	if sig != unix.SIGKILL {
		unix.Kill(-p.pid, unix.SIGCONT)
		for _, pid := range frozen {
			unix.Kill(pid, unix.SIGCONT)
		}
	}
}

// hold keeps sig for later when the command has not started; it reports
// whether it did.
func (p *Process) hold(sig unix.Signal) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.commandUp {
		return false
	}
	if p.held == 0 {
		p.held = sig
	}
	return true
}

// Terminate asks the whole group to stop (SIGTERM), as a cancel.
func (p *Process) Terminate() {
	p.mu.Lock()
	p.cancel = true
	p.mu.Unlock()
	p.signal(unix.SIGTERM)
}

// Kill force-stops the group and its descendants (SIGKILL).
func (p *Process) Kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	p.signal(unix.SIGKILL)
}

// Wait runs the timeout, waits for the leader, cleans up what is left of
// the group (SIGTERM, grace, SIGKILL) and reports the outcome.
func (p *Process) Wait() Outcome {
	timeout := p.spec.Timeout
	if timeout <= 0 {
		timeout = 120 * time.Second
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		p.mu.Lock()
		p.timedOut = true
		p.mu.Unlock()
		p.signal(unix.SIGTERM)
		if !p.waitExit(p.spec.Grace) {
			p.Kill()
			<-p.exited
		}
	}
	ended, unconfirmed := p.sweep()
	p.release()
	err := p.cmd.Wait()
	o := p.outcome(err, unconfirmed)
	o.Ended = ended
	return o
}

func (p *Process) waitExit(d time.Duration) bool {
	select {
	case <-p.exited:
		return true
	case <-time.After(d):
		return false
	}
}

// sweep ends group members that outlived the leader (background jobs,
// daemons that kept the group or, adopted, left it) and returns those it
// ended and those it could not confirm.
func (p *Process) sweep() (ended, unconfirmed []Survivor) {
	seen := map[int]Survivor{}
	var order []int
	note := func() int {
		left := p.Members()
		for _, m := range left {
			if _, ok := seen[m.PID]; !ok {
				seen[m.PID] = m
				order = append(order, m.PID)
			}
		}
		return len(left)
	}
	if note() == 0 {
		return nil, nil
	}
	p.signal(unix.SIGTERM)
	deadline := time.Now().Add(p.spec.Grace)
	for time.Now().Before(deadline) && note() > 0 {
		time.Sleep(20 * time.Millisecond)
	}
	if note() > 0 {
		p.signal(unix.SIGKILL)
		for i := 0; i < 25 && note() > 0; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	}
	unconfirmed = p.Members()
	alive := map[int]bool{}
	for _, m := range unconfirmed {
		alive[m.PID] = true
	}
	for _, pid := range order {
		if !alive[pid] {
			ended = append(ended, seen[pid])
		}
	}
	return ended, unconfirmed
}

func (p *Process) outcome(waitErr error, unconfirmed []Survivor) Outcome {
	o := Outcome{DurationMS: time.Since(p.started).Milliseconds(), Unconfirmed: unconfirmed}
	o.Stdout, o.StdoutTruncated, o.StdoutBytes = p.stdout.Result()
	o.Stderr, o.StderrTruncated, o.StderrBytes = p.stderr.Result()
	p.mu.Lock()
	o.TimedOut, o.Cancelled, o.Killed = p.timedOut, p.cancel, p.killed
	p.mu.Unlock()
	if p.reported != nil {
		if ws := *p.reported; ws.Signaled() {
			o.Signal = unix.SignalName(ws.Signal())
		} else {
			code := ws.ExitStatus()
			o.ExitCode = &code
		}
	} else if st := p.cmd.ProcessState; st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			o.Signal = unix.SignalName(ws.Signal())
		} else {
			code := st.ExitCode()
			o.ExitCode = &code
		}
	}
	if errors.Is(waitErr, exec.ErrWaitDelay) && len(o.Unconfirmed) == 0 {
		o.Unconfirmed = []Survivor{{PID: 0, Command: "unknown process holding the output pipes"}}
	}
	return o
}
