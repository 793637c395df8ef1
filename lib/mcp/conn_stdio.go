package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/timerslack"
)

// maxMessageBytes bounds one message a server sends: a line longer than
// this ends the connection instead of growing without bound.
const maxMessageBytes = 16 << 20

// terminateWait is how long a closing stdio server gets after its stdin
// is closed, and again after SIGTERM, before it is killed.
const terminateWait = 2 * time.Second

// stdioConn is a server process speaking one JSON message per line.
type stdioConn struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	out    *bufio.Reader
	wmu    sync.Mutex
	exited chan struct{}
	once   sync.Once
}

// startStdio starts cmd with its stdin and stdout as the connection.
func startStdio(cmd *exec.Cmd) (*stdioConn, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Its stdout is a pipe of our own, not StdoutPipe's: Wait, which
	// reaps the server below, would close that one and lose the last
	// messages a server writes just before it exits. Ours ends when every
	// writer (the server, a child it left) has closed it.
	stdout, w, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	cmd.Stdout = w
	err = timerslack.Start(cmd)
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, err
	}
	c := &stdioConn{cmd: cmd, stdin: stdin, stdout: stdout, out: bufio.NewReaderSize(stdout, 64<<10), exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

func (c *stdioConn) send(_ context.Context, msg []byte) error {
	if bytes.IndexByte(msg, '\n') >= 0 {
		return errors.New("a JSON-RPC message with a newline cannot go over stdio")
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.stdin.Write(append(msg, '\n'))
	return err
}

func (c *stdioConn) recv() ([]byte, error) {
	for {
		line, err := readLine(c.out, maxMessageBytes)
		if errors.Is(err, errLineTooLong) {
			return nil, err
		}
		if m := bytes.TrimSpace(line); len(m) > 0 && err == nil {
			return m, nil
		}
		if err != nil {
			return nil, io.EOF
		}
	}
}

// errLineTooLong: a server sent a line over the message bound.
var errLineTooLong = fmt.Errorf("the server sent a message over %d bytes", maxMessageBytes)

// readLine reads through the next newline, never holding more than max
// bytes of it: a longer line is errLineTooLong. At the end of input the
// last, unterminated part comes with the error.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// close ends the server as a well-behaved one expects: stdin closed,
// then SIGTERM, then SIGKILL, each after terminateWait; the caller ends
// what is left of its process group.
func (c *stdioConn) close() error {
	c.once.Do(func() {
		c.wmu.Lock()
		c.stdin.Close()
		c.wmu.Unlock()
		select {
		case <-c.exited:
			return
		case <-time.After(terminateWait):
		}
		c.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-c.exited:
			return
		case <-time.After(terminateWait):
		}
		c.cmd.Process.Kill()
		<-c.exited
	})
	// A child the server left may hold its stdout open: the reader is
	// ended here, not by that child.
	c.stdout.Close()
	return nil
}
