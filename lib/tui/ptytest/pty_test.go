package ptytest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns a pseudo terminal's master and slave ends, sized cols x
// rows. Written with x/sys/unix so the module needs no pty dependency.
func openPTY(cols, rows int) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(master.Fd())
	if err = unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err == nil {
		var n int
		if n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN); err == nil {
			slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
		}
	}
	if err == nil {
		err = setSize(master, cols, rows)
	}
	if err != nil {
		master.Close()
		if slave != nil {
			slave.Close()
		}
		return nil, nil, err
	}
	return master, slave, nil
}

func setSize(f *os.File, cols, rows int) error {
	return unix.IoctlSetWinsize(int(f.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)})
}

// term is one process running on a pty whose output is recorded with the
// arrival time of every read, so a wait can tell when bytes appeared.
type term struct {
	t      testing.TB
	cmd    *exec.Cmd
	master *os.File
	start  time.Time
	stderr bytes.Buffer

	mu      sync.Mutex
	cond    *sync.Cond
	out     []byte
	arrived []arrival // offsets at which each read ended, with its time
	eof     bool
	exited  chan struct{}
	waitErr error
}

type arrival struct {
	end int
	at  time.Time
}

// startTerm runs argv on a fresh cols x rows pty with env; stdin, stdout
// and the controlling terminal are the pty, stderr is kept apart so the
// recorded stream holds only what the program drew.
func startTerm(t testing.TB, cols, rows int, env []string, dir string, argv ...string) *term {
	t.Helper()
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		t.Fatalf("cannot open a pty: %v", err)
	}
	tm := &term{t: t, master: master, exited: make(chan struct{})}
	tm.cond = sync.NewCond(&tm.mu)
	tm.cmd = exec.Command(argv[0], argv[1:]...)
	tm.cmd.Env, tm.cmd.Dir = env, dir
	tm.cmd.Stdin, tm.cmd.Stdout, tm.cmd.Stderr = slave, slave, &tm.stderr
	tm.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	tm.start = time.Now()
	if err := tm.cmd.Start(); err != nil {
		t.Fatalf("cannot start %v: %v", argv, err)
	}
	slave.Close()
	go tm.read()
	go func() {
		err := tm.cmd.Wait()
		tm.mu.Lock()
		tm.waitErr = err
		tm.mu.Unlock()
		close(tm.exited)
	}()
	t.Cleanup(tm.kill)
	return tm
}

func (tm *term) read() {
	buf := make([]byte, 64<<10)
	for {
		n, err := tm.master.Read(buf)
		now := time.Now()
		tm.mu.Lock()
		if n > 0 {
			tm.out = append(tm.out, buf[:n]...)
			tm.arrived = append(tm.arrived, arrival{len(tm.out), now})
		}
		if err != nil {
			tm.eof = true
		}
		tm.cond.Broadcast()
		tm.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (tm *term) kill() {
	select {
	case <-tm.exited:
	default:
		tm.cmd.Process.Kill()
		<-tm.exited
	}
	tm.master.Close()
}

// size returns how many bytes have been recorded so far.
func (tm *term) size() int {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return len(tm.out)
}

// bytes returns a copy of everything recorded.
func (tm *term) bytes() []byte {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return append([]byte(nil), tm.out...)
}

// waitFor waits until want occurs in the output at or after offset from,
// and returns the arrival time of the read that completed it and the
// offset just past the match.
func (tm *term) waitFor(want string, from int, timeout time.Duration) (time.Time, int) {
	tm.t.Helper()
	at, end, ok := tm.tryWait(want, from, timeout)
	if !ok {
		tail := tm.bytes()
		tm.t.Fatalf("%q never appeared in the terminal output within %v (stderr: %s)\nlast text: %s",
			want, timeout, tm.stderr.String(), escapes.ReplaceAll(tail[max(0, len(tail)-6000):], []byte(" ")))
	}
	return at, end
}

func (tm *term) tryWait(want string, from int, timeout time.Duration) (time.Time, int, bool) {
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() { tm.mu.Lock(); tm.cond.Broadcast(); tm.mu.Unlock() })
	defer timer.Stop()
	tm.mu.Lock()
	defer tm.mu.Unlock()
	for {
		if i := bytes.Index(tm.out[min(from, len(tm.out)):], []byte(want)); i >= 0 {
			end := min(from, len(tm.out)) + i + len(want)
			for _, a := range tm.arrived {
				if a.end >= end {
					return a.at, end, true
				}
			}
		}
		if tm.eof || time.Now().After(deadline) {
			return time.Time{}, 0, false
		}
		tm.cond.Wait()
	}
}

func (tm *term) write(s string) {
	tm.t.Helper()
	if _, err := tm.master.Write([]byte(s)); err != nil {
		tm.t.Fatalf("cannot write to the pty: %v", err)
	}
}

// waitExit waits for the process to end and for its last bytes.
func (tm *term) waitExit(timeout time.Duration) {
	tm.t.Helper()
	select {
	case <-tm.exited:
	case <-time.After(timeout):
		tail := tm.bytes()
		tm.t.Fatalf("the program did not exit within %v; last bytes %q", timeout, tail[max(0, len(tail)-400):])
	}
	// The slave closed with the process; drain what is left.
	deadline := time.Now().Add(2 * time.Second)
	tm.mu.Lock()
	for !tm.eof && time.Now().Before(deadline) {
		tm.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		tm.mu.Lock()
	}
	tm.mu.Unlock()
}
