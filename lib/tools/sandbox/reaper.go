package sandbox

import (
	"bufio"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/proc"
	"golang.org/x/sys/unix"
)

// The launcher is the init of the command's own PID namespace: when it
// dies — with fluzo-tool, through its parent-death signal, or by the
// SIGKILL fluzo-tool sends the group — the kernel kills every process of
// the namespace, daemons in sessions of their own included. Nothing a
// command starts can be reparented beyond it.

// forwarded are the signals the launcher passes on to the command when
// nobody else signals it (see superviseCommand).
var forwarded = []os.Signal{unix.SIGTERM, unix.SIGINT, unix.SIGHUP, unix.SIGQUIT, unix.SIGUSR1, unix.SIGUSR2}

// catchSignals installs handlers for the forwarded signals. It must run
// first: the Go runtime's default for SIGTERM is to exit, and the init's
// exit would SIGKILL the command with no chance to clean up. A handled
// signal is reset to the default by the command's exec; an ignored one
// would be inherited.
func catchSignals() chan os.Signal {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, forwarded...)
	return ch
}

// superviseCommand forks argv from the calling (confined, locked) thread,
// reaps every process of the namespace and ends the launcher when the
// command is over. With a control socket (fluzo-tool's exec and shell,
// see proc.Spec.Reaper) it reports the command's wait status there and
// stays, so the namespace's other processes live on until fluzo-tool has
// swept them (with grace, named in the result), and exits when fluzo-tool
// closes the socket — or dies. Without one (an MCP server, whose client
// signals only the launcher) it forwards signals to the command and exits
// with the command's status at once.
func superviseCommand(argv []string, control *os.File, sigs chan os.Signal) error {
	var fromTool *bufio.Reader
	if control != nil {
		// Not before fluzo-tool says so: it first hands this process's
		// pidfd to the lock keeper (proc.Keeper).
		fromTool = bufio.NewReader(control)
		if line, _ := fromTool.ReadString('\n'); line != proc.GoLine {
			os.Exit(1)
		}
	}
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2},
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}})
	if err != nil {
		return core.Wrap(err, "spawn_failed", "cannot start "+argv[0]+": "+err.Error()).
			WithHint("check the program path and permissions")
	}
	ended := make(chan unix.WaitStatus, 1)
	go reapAll(pid, ended)
	if control != nil {
		// Until fluzo-tool reads this, a signal it sends the group could
		// reach this launcher alone (which ignores it) and miss the
		// command; it holds such signals until the command exists.
		control.Write([]byte(proc.StartedLine))
	}
	if control == nil {
		for {
			select {
			case sig := <-sigs:
				unix.Kill(pid, sig.(syscall.Signal))
			case ws := <-ended:
				os.Exit(exitCode(ws))
			}
		}
	}
	released := make(chan struct{})
	go func() {
		// EOF: fluzo-tool released the launcher or is gone; either way
		// the namespace ends now.
		fromTool.ReadString('\n')
		close(released)
	}()
	select {
	case ws := <-ended:
		control.Write([]byte(proc.StatusLine(ws)))
		<-released
		os.Exit(exitCode(ws))
	case <-released:
		os.Exit(1)
	}
	return nil
}

// reapAll collects every child the init is given (the command and every
// orphan of the namespace) and sends the command's status on ended.
func reapAll(command int, ended chan<- unix.WaitStatus) {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return // ECHILD: nothing left; the command was reaped already
		}
		if pid == command {
			ended <- ws
		}
	}
}

// exitCode is the launcher's own exit status for the command's: an init
// cannot die of a signal it sends itself, so a signal is 128+N as shells
// report it (fluzo-tool reads the exact status from the control socket).
func exitCode(ws unix.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// mountOwnProc mounts a procfs of the command's PID namespace over /proc
// (in the launcher's private mount namespace), so /proc shows the
// command's processes only, under the pids they see themselves as
// ($$, /proc/self and ps agree), and nothing of fluzo-tool or the agent.
func mountOwnProc() error {
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return &os.SyscallError{Syscall: "mount(proc)", Err: err}
	}
	return nil
}

// hostParent reads the parent pid from an open /proc/self/stat of the
// host's procfs: inside the namespace getppid() is always 0, and the
// file, opened before /proc is replaced, still tells whether the parent
// (fluzo-tool) has changed — that is, died.
func hostParent(stat *os.File) int {
	b := make([]byte, 512)
	n, _ := stat.ReadAt(b, 0)
	s := string(b[:n])
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return ppid
}
