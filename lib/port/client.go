package port

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Options say how to start the serve child. The caller decides the argv
// and environment (the TUI passes --workspace/--config through).
type Options struct {
	Path string   // executable, e.g. the fluzo-agent beside fluzo-tui
	Args []string // arguments after the program name, e.g. serve --workspace DIR
	Env  []string // nil: inherit
	Dir  string
}

// LostError says the port went away: serve exited or closed its stdout.
// ExitCode is -1 when it is unknown; Stderr keeps the child's last words
// (bounded), which carry its typed error such as workspace_busy.
type LostError struct {
	ExitCode int
	Stderr   string
	Cause    error
}

func (e *LostError) Error() string {
	msg := "the fluzo-agent serve port was lost"
	if e.ExitCode >= 0 {
		msg += " (exit status " + strconv.Itoa(e.ExitCode) + ")"
	}
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

func (e *LostError) Unwrap() error { return e.Cause }

// Code maps the child's exit status to the toolkit's error code (exit 11
// is workspace_busy), so a client can say why without parsing text.
func (e *LostError) Code() core.Code {
	for code, exit := range exitCodes {
		if exit == e.ExitCode {
			return code
		}
	}
	return core.CodeFailed
}

var exitCodes = map[core.Code]int{
	core.CodeWorkspaceBusy:         core.ExitFor(core.CodeWorkspaceBusy),
	core.CodeConfigurationRequired: core.ExitFor(core.CodeConfigurationRequired),
	core.CodeStorageError:          core.ExitFor(core.CodeStorageError),
	core.CodeUsage:                 core.ExitFor(core.CodeUsage),
}

// Client speaks to one serve child. Send is safe from any goroutine;
// records arrive in order on Records, which closes when the port is lost
// (then Err says why).
type Client struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	records chan Record
	stderr  tailBuffer

	writeMu sync.Mutex
	nextID  atomic.Int64

	done chan struct{}
	err  error
}

// Start runs the serve child and begins reading its records.
func Start(ctx context.Context, opts Options) (*Client, error) {
	cmd := exec.CommandContext(ctx, opts.Path, opts.Args...)
	cmd.Env, cmd.Dir = opts.Env, opts.Dir
	c := &Client{cmd: cmd, records: make(chan Record, 256), done: make(chan struct{})}
	cmd.Stderr = &c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot open the port's input")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot open the port's output")
	}
	if err := cmd.Start(); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot start "+opts.Path).
			WithHint("install fluzo-agent beside fluzo-tui or on PATH")
	}
	go c.read(stdout)
	return c, nil
}

// Records delivers every record serve writes, in order.
func (c *Client) Records() <-chan Record { return c.records }

// Done closes when the port is lost; Err is then set.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err returns the *LostError once Records is closed, nil before.
func (c *Client) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Pid is the serve child's process id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// Send writes one command with a fresh id and returns the id its ack or
// error will name in "re".
func (c *Client) Send(cmd string, args Args) (string, error) {
	id := strconv.FormatInt(c.nextID.Add(1), 10)
	line := map[string]any{"v": 1, "id": id, "cmd": cmd}
	for k, v := range args {
		line[k] = v
	}
	b, err := json.Marshal(line)
	if err != nil {
		return "", core.Wrap(err, core.CodeInvalidRequest, "cannot encode the "+cmd+" command")
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		return "", &LostError{ExitCode: -1, Cause: err, Stderr: c.stderr.String()}
	}
	return id, nil
}

// Close ends the port's input (serve lets a running task finish, then
// exits) and waits for the child.
func (c *Client) Close() error {
	c.writeMu.Lock()
	c.stdin.Close()
	c.writeMu.Unlock()
	<-c.done
	var lost *LostError
	if errors.As(c.err, &lost) && lost.ExitCode == 0 {
		return nil
	}
	return c.err
}

// CloseWithin is Close with a bound: when serve has not exited grace
// after its input ended (a task still finishing), it is killed; its owner
// record then says crashed and the next owner reconciles the task.
func (c *Client) CloseWithin(grace time.Duration) error {
	c.writeMu.Lock()
	c.stdin.Close()
	c.writeMu.Unlock()
	select {
	case <-c.done:
	case <-time.After(grace):
		c.cmd.Process.Kill()
		<-c.done
	}
	var lost *LostError
	if errors.As(c.err, &lost) && lost.ExitCode == 0 {
		return nil
	}
	return c.err
}

func (c *Client) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		rec, err := Decode(sc.Bytes())
		if err != nil {
			// A line we cannot read is shown, not dropped silently.
			rec = Record{Kind: KindLive, Live: &Live{Type: "live.protocol_error", Message: core.AsError(err).Message}, Raw: append([]byte(nil), sc.Bytes()...)}
		}
		c.records <- rec
	}
	scanErr := sc.Err()
	waitErr := c.cmd.Wait()
	lost := &LostError{ExitCode: -1, Stderr: c.stderr.String(), Cause: scanErr}
	var ee *exec.ExitError
	switch {
	case waitErr == nil:
		lost.ExitCode = 0
	case errors.As(waitErr, &ee):
		lost.ExitCode = ee.ExitCode()
		if lost.Cause == nil {
			lost.Cause = waitErr
		}
	default:
		lost.Cause = waitErr
	}
	c.err = lost
	close(c.done)
	close(c.records)
}

// tailBuffer keeps the last few KiB the child wrote to stderr.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = t.buf[len(t.buf)-tailMax:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}
