package proc

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// A SIGKILLed owner's workspace lock is released by the kernel at once,
// while its commands die only when that death has travelled (fluzo-tool,
// then each launcher's parent-death signal, then the PID namespace's
// end): a later owner could take the lock while a command still writes.
// The lock keeper closes that window. It is a small process of its own
// (its own session, no parent-death signal) holding a duplicate of the
// owner's lock descriptor — a flock belongs to the open file description,
// so the lock stays held while any descriptor of it is open — and a
// pidfd of every launcher. When fluzo-tool is gone it waits until every
// launcher has exited and only then exits, closing its duplicate. A
// pidfd becomes readable only once its process is a zombie, which for a
// PID namespace's init is after the kernel killed and reaped every
// process of the namespace: so the lock is free only when nothing of the
// tool tree is left. A clean owner unlocks explicitly (LOCK_UN drops the
// lock for every descriptor), so it never waits for the keeper.

// KeeperCommand is the hidden fluzo-tool subcommand that is the keeper:
// fluzo-tool lock-keeper, with the lock on fd 3 and the socket on fd 4.
const KeeperCommand = "lock-keeper"

// Keeper is fluzo-tool's side of a running lock keeper.
type Keeper struct {
	mu   sync.Mutex
	sock *os.File
	cmd  *exec.Cmd
}

// StartKeeper starts exe's lock keeper holding lock; nil lock: no keeper
// (nil, nil), and Track does nothing.
func StartKeeper(exe string, lock *os.File) (*Keeper, error) {
	if lock == nil {
		return nil, nil
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot create the lock keeper's socket")
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "keeper"), os.NewFile(uintptr(fds[1]), "keeper")
	defer theirs.Close()
	cmd := &exec.Cmd{Path: exe, Args: []string{exe, KeeperCommand}, Env: os.Environ(),
		ExtraFiles: []*os.File{lock, theirs}, SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	if err := cmd.Start(); err != nil {
		ours.Close()
		return nil, core.Wrap(err, core.CodeFailed, "cannot start the lock keeper "+exe)
	}
	ownHelpers.Store(cmd.Process.Pid, true)
	return &Keeper{sock: ours, cmd: cmd}, nil
}

// ownHelpers are this process's own children that are no command's
// orphans (the lock keeper): a subreaper's sweep leaves them alone.
var ownHelpers sync.Map

func isOwnHelper(pid int) bool { _, ok := ownHelpers.Load(pid); return ok }

// keeperExitWait bounds how long a closing server waits for its keeper.
const keeperExitWait = 5 * time.Second

// Close tells the keeper this server is done and reaps it: its commands
// have ended, so it exits at once (a server that dies instead leaves it
// to whoever adopts it, after it has waited for the commands).
func (k *Keeper) Close() {
	if k == nil {
		return
	}
	k.sock.Close()
	done := make(chan struct{})
	go func() { k.cmd.Wait(); ownHelpers.Delete(k.cmd.Process.Pid); close(done) }()
	select {
	case <-done:
	case <-time.After(keeperExitWait):
	}
}

// Track hands the keeper a pidfd of a launcher; once it returns, the
// keeper holds the lock until that process has exited, even if this
// process dies the next instant (the descriptor is in the socket).
func (k *Keeper) Track(pidfd int) error {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := unix.Sendmsg(int(k.sock.Fd()), []byte{'p'}, unix.UnixRights(pidfd), nil, 0); err != nil {
		return core.Wrap(err, "spawn_failed", "the lock keeper is gone: "+err.Error()).
			WithHint("the command was not started; restart the task")
	}
	return nil
}

// RunKeeper is the keeper process: it collects pidfds until fluzo-tool's
// end of the socket closes, waits for each of those processes to exit and
// returns (the caller exits, closing the lock).
func RunKeeper() int {
	const lockFD, sockFD = 3, 4
	var pidfds []int
	buf, oob := make([]byte, 16), make([]byte, unix.CmsgSpace(4*8))
	for {
		n, oobn, _, _, err := unix.Recvmsg(sockFD, buf, oob, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || (n == 0 && oobn == 0) {
			break
		}
		msgs, _ := unix.ParseSocketControlMessage(oob[:oobn])
		for _, m := range msgs {
			fds, _ := unix.ParseUnixRights(&m)
			pidfds = append(pidfds, fds...)
		}
		pidfds = stillRunning(pidfds, 0)
	}
	for len(pidfds) > 0 {
		pidfds = stillRunning(pidfds, -1)
	}
	unix.Close(lockFD)
	return 0
}

// stillRunning waits up to timeout ms (-1: until one exits) and returns
// the pidfds whose process has not exited, closing the others.
func stillRunning(pidfds []int, timeout int) []int {
	if len(pidfds) == 0 {
		return nil
	}
	pfds := make([]unix.PollFd, len(pidfds))
	for i, fd := range pidfds {
		pfds[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
	}
	if _, err := unix.Poll(pfds, timeout); err != nil && err != unix.EINTR {
		return nil
	}
	var left []int
	for i, p := range pfds {
		if p.Revents != 0 {
			unix.Close(pidfds[i])
			continue
		}
		left = append(left, pidfds[i])
	}
	return left
}
