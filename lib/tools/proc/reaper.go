package proc

import (
	"bufio"

	"github.com/josecorral/fluzo/lib/core"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ReaperFD is the descriptor a Reaper child finds its control socket on
// (the first of exec.Cmd.ExtraFiles).
const ReaperFD = 3

// StatusLine is what a reaper writes on its control socket when the
// command it runs has ended: the raw wait status, so the result reports
// an exit code or a signal exactly as if the command were the child.
func StatusLine(ws unix.WaitStatus) string { return "status " + strconv.Itoa(int(ws)) + "\n" }

// parseStatus reads StatusLine's format; false for anything else.
func parseStatus(line string) (unix.WaitStatus, bool) {
	v, ok := strings.CutPrefix(strings.TrimSpace(line), "status ")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, false
	}
	return unix.WaitStatus(n), true
}

// controlPair makes the socket pair of a Reaper child: ours and the
// child's end (to hand over as ExtraFiles[0]).
func controlPair() (ours, theirs *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "reaper-control"), os.NewFile(uintptr(fds[1]), "reaper-control"), nil
}

// StartedLine is what a reaper writes on its control socket once its
// command exists (forked and exec'd): from then on a signal to the group
// reaches the command.
const StartedLine = "started\n"

// watchReport reads the reaper's lines: started (the command exists; a
// held signal is delivered now), then its status line (the command has
// ended; the reaper itself stays until released). Nothing (EOF) means the
// reaper died first; the leader's own exit then counts.
func (p *Process) watchReport() {
	rd := bufio.NewReader(p.control)
	line, _ := rd.ReadString('\n')
	if line == StartedLine {
		p.commandStarted()
		line, _ = rd.ReadString('\n')
	}
	// Whatever else came (a status, EOF), the command is not waiting to
	// start any more: nothing is held back from here on.
	p.commandStarted()
	if ws, ok := parseStatus(line); ok {
		p.mu.Lock()
		p.reported = &ws
		p.mu.Unlock()
		p.markExited()
	}
}

// commandStarted ends the holding of signals and delivers the one held.
func (p *Process) commandStarted() {
	p.mu.Lock()
	if p.commandUp {
		p.mu.Unlock()
		return
	}
	held := p.held
	p.commandUp, p.held = true, 0
	p.mu.Unlock()
	if held != 0 {
		p.signal(held)
	}
}

// release lets a reaper exit (and with it every process left in its
// namespace): called once the group was swept.
func (p *Process) release() {
	if p.control != nil {
		p.control.Close()
	}
}

// GoLine is what fluzo-tool writes on a reaper's control socket once the
// reaper may start its command (after the lock keeper tracks it).
const GoLine = "go\n"

// letStart hands a reaper's pidfd to spec.Track and then lets the reaper
// start its command; a failed Track kills the reaper unstarted.
func (p *Process) letStart(pidfd int) error {
	if p.control == nil {
		return nil
	}
	var err error
	if p.spec.Track != nil {
		err = p.spec.Track(pidfd)
	}
	if pidfd >= 0 {
		unix.Close(pidfd)
	}
	if err == nil {
		_, err = p.control.Write([]byte(GoLine))
	}
	if err != nil {
		unix.Kill(p.pid, unix.SIGKILL)
		p.release()
		p.cmd.Wait()
		return core.AsError(err)
	}
	return nil
}
