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
	ExitCode        *int       `json:"exit_code"`
	Signal          string     `json:"signal,omitempty"`
	DurationMS      int64      `json:"duration_ms"`
	Stdout          string     `json:"stdout"`
	Stderr          string     `json:"stderr"`
	StdoutBytes     int64      `json:"stdout_bytes"`
	StderrBytes     int64      `json:"stderr_bytes"`
	StdoutTruncated bool       `json:"stdout_truncated"`
	StderrTruncated bool       `json:"stderr_truncated"`
	TimedOut        bool       `json:"timed_out"`
	Cancelled       bool       `json:"cancelled"`
	Killed          bool       `json:"killed"`
	Unconfirmed     []Survivor `json:"unconfirmed,omitempty"`
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
	mu       sync.Mutex
	timedOut bool
	cancel   bool
	killed   bool
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if spec.Prepare != nil {
		spec.Prepare(cmd.SysProcAttr)
	}
	// Pipes still held by an escaped descendant must not block the report.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, core.Wrap(err, "spawn_failed", "cannot start "+spec.Argv[0]+": "+spawnReason(err)).
			WithHint("check the program path and permissions; fluzo-tool does not retry through a shell")
	}
	p.cmd, p.pid, p.started = cmd, cmd.Process.Pid, time.Now()
	go p.watchLeader()
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
	close(p.exited)
}

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

func (p *Process) signal(sig unix.Signal) {
	unix.Kill(-p.pid, sig)
	for _, m := range members(p.pid, p.spec.AdoptOrphans) {
		unix.Kill(m.pid, sig)
	}
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
	unconfirmed := p.sweep()
	err := p.cmd.Wait()
	return p.outcome(err, unconfirmed)
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
// daemons that kept the group) and returns those it could not confirm.
func (p *Process) sweep() []Survivor {
	if len(p.Members()) == 0 {
		return nil
	}
	p.signal(unix.SIGTERM)
	deadline := time.Now().Add(p.spec.Grace)
	for time.Now().Before(deadline) && len(p.Members()) > 0 {
		time.Sleep(20 * time.Millisecond)
	}
	if len(p.Members()) == 0 {
		return nil
	}
	p.signal(unix.SIGKILL)
	for i := 0; i < 25 && len(p.Members()) > 0; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	return p.Members()
}

func (p *Process) outcome(waitErr error, unconfirmed []Survivor) Outcome {
	o := Outcome{DurationMS: time.Since(p.started).Milliseconds(), Unconfirmed: unconfirmed}
	o.Stdout, o.StdoutTruncated, o.StdoutBytes = p.stdout.Result()
	o.Stderr, o.StderrTruncated, o.StderrBytes = p.stderr.Result()
	p.mu.Lock()
	o.TimedOut, o.Cancelled, o.Killed = p.timedOut, p.cancel, p.killed
	p.mu.Unlock()
	if st := p.cmd.ProcessState; st != nil {
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
