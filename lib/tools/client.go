package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/timerslack"
)

// Result is the answer to one tool request.
type Result struct {
	ID string
	// OK is true for a result record; false for a typed tool error.
	OK   bool
	Data json.RawMessage
	Err  *core.Error
}

// Decode unmarshals a successful result's data into v.
func (r Result) Decode(v any) error {
	if !r.OK {
		return r.Err
	}
	return json.Unmarshal(r.Data, v)
}

// Client speaks the fluzo-tool protocol to a server over a pipe: a child
// "fluzo-tool serve" (StartServer) or an in-process server (NewLocal).
type Client struct {
	enc    *json.Encoder
	encMu  sync.Mutex
	closer io.Closer
	seq    atomic.Int64
	mu     sync.Mutex
	wait   map[string]chan Reply
	done   chan struct{}
	err    error
	finish func() error
	// server is the fluzo-tool child (nil for an in-process server).
	server *os.Process
	// stderr keeps the tail of the child's stderr (nil in process).
	stderr *stderrTail
	// Stopping receives "stopping" reports (a cancel left survivors).
	// Reports are dropped when nobody reads and the buffer is full.
	Stopping chan Reply
}

// StartServer spawns "BINARY serve --root ROOT" (binary "" means
// "fluzo-tool" on PATH) with extra arguments such as --grace, and returns
// a client for it. Closing the client closes the server's stdin, which
// makes it stop its processes and exit.
func StartServer(ctx context.Context, root, binary string, extra ...string) (*Client, error) {
	return StartServerEnv(ctx, root, binary, nil, extra...)
}

// StartServerEnv is StartServer with the server's environment (nil: this
// process's). The agent passes a scrubbed one: fluzo-tool and every
// command it runs start without provider or telemetry credentials.
func StartServerEnv(ctx context.Context, root, binary string, env []string, extra ...string) (*Client, error) {
	return StartServerHolding(ctx, root, binary, env, nil, extra...)
}

// StartServerHolding is StartServerEnv for an owner holding lock, its
// workspace lock: the server gets a duplicate and keeps the lock held,
// should the owner die, until every command it started has exited
// (proc.Keeper). nil: no lock to hold.
func StartServerHolding(ctx context.Context, root, binary string, env []string, lock *os.File, extra ...string) (*Client, error) {
	if binary == "" {
		binary = "fluzo-tool"
	}
	args := []string{binary, "serve", "--root", root}
	if lock != nil {
		// ExtraFiles[0] is the child's descriptor 3.
		args = append(args, "--hold-lock-fd", "3")
	}
	return StartCommandHolding(ctx, append(args, extra...), env, lock)
}

// StartCommand spawns argv as the tool backend and speaks the protocol
// over its stdin and stdout: a local "fluzo-tool serve", or a command
// that reaches one elsewhere ("ssh -T HOST fluzo-tool serve --root DIR",
// "kubectl exec -i POD -- fluzo-tool serve --root DIR"). argv is run
// as given, never through a shell; env is its whole environment (nil:
// this process's).
func StartCommand(ctx context.Context, argv []string, env []string) (*Client, error) {
	return StartCommandHolding(ctx, argv, env, nil)
}

// StartCommandHolding is StartCommand passing lock as the child's
// descriptor 3 (nil: none), for a local fluzo-tool that keeps the owner's
// workspace lock held.
func StartCommandHolding(ctx context.Context, argv []string, env []string, lock *os.File) (*Client, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, core.Errorf(core.CodeConfigurationRequired, "the tool backend command is empty").
			WithHint(`set [tools] backend = ["fluzo-tool", "serve", "--root", "DIR"] or leave it out`)
	}
	binary := argv[0]
	cmd := exec.Command(binary, argv[1:]...)
	if lock != nil {
		cmd.ExtraFiles = []*os.File{lock}
	}
	cmd.Env = env
	tail := &stderrTail{}
	cmd.Stderr = tail
	// A descendant that kept the stderr pipe open must not hold up the
	// reaping of the backend itself.
	cmd.WaitDelay = 2 * time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot create the fluzo-tool pipes")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot create the fluzo-tool pipes")
	}
	if err := timerslack.Start(cmd); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot start the tool backend "+binary).WithHint("install %s, or fix the backend command (tools.backend, --backend)", binary)
	}
	c := pipeClient(stdin, stdout, tail)
	c.finish = cmd.Wait
	c.server = cmd.Process
	return c, nil
}

// NewLocal runs a server in this process over in-memory pipes; it behaves
// like StartServer without a child process (used by tests and embedders).
func NewLocal(ctx context.Context, opts Options) (*Client, error) {
	s, err := NewServer(opts)
	if err != nil {
		return nil, err
	}
	reqR, reqW := io.Pipe()
	repR, repW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := s.Serve(ctx, reqR, repW)
		s.Close()
		repW.Close()
		served <- err
	}()
	c := pipeClient(reqW, repR, nil)
	c.finish = func() error { return <-served }
	return c, nil
}

func pipeClient(w io.WriteCloser, r io.Reader, stderr *stderrTail) *Client {
	c := &Client{enc: core.NewVerbatimEncoder(w), closer: w, wait: map[string]chan Reply{}, done: make(chan struct{}), Stopping: make(chan Reply, 16), stderr: stderr}
	go c.read(r)
	return c
}

func (c *Client) read(r io.Reader) {
	rd := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := readLine(rd)
		if len(line) > 0 {
			var rep Reply
			if json.Unmarshal(line, &rep) == nil {
				c.deliver(rep)
			}
		}
		if err != nil {
			c.mu.Lock()
			c.err = closedOutput(c.stderr)
			for id, ch := range c.wait {
				close(ch)
				delete(c.wait, id)
			}
			c.mu.Unlock()
			close(c.done)
			return
		}
	}
}

func (c *Client) deliver(rep Reply) {
	if rep.Type == TypeStopping {
		select {
		case c.Stopping <- rep:
		default:
		}
		return
	}
	c.mu.Lock()
	ch := c.wait[rep.Re]
	delete(c.wait, rep.Re)
	c.mu.Unlock()
	if ch != nil {
		ch <- rep
	}
}

func (c *Client) send(id string, rec any) (chan Reply, error) {
	ch := make(chan Reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.wait[id] = ch
	c.mu.Unlock()
	c.encMu.Lock()
	err := c.enc.Encode(rec)
	c.encMu.Unlock()
	if err != nil {
		c.mu.Lock()
		delete(c.wait, id)
		c.mu.Unlock()
		return nil, core.Wrap(err, core.CodeFailed, "cannot send to the fluzo-tool server")
	}
	return ch, nil
}

// Lost reports whether the server's output has ended: the server exited
// (or was killed), so no request in flight will ever be answered.
func (c *Client) Lost() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// NextID returns a fresh request id.
func (c *Client) NextID() string { return fmt.Sprintf("r%d", c.seq.Add(1)) }

// Pending is a request in flight.
type Pending struct {
	ID string
	c  *Client
	ch chan Reply
}

// Start sends a request and returns without waiting for its result.
func (c *Client) Start(tool string, args json.RawMessage) (*Pending, error) {
	return c.StartWithin(tool, args, 0)
}

// StartWithin is Start with max_seconds: the server caps any process
// timeout of the request to max (the caller's remaining budget; 0 for
// no cap), whatever timeout_seconds the arguments ask for.
func (c *Client) StartWithin(tool string, args json.RawMessage, max time.Duration) (*Pending, error) {
	id := c.NextID()
	ch, err := c.send(id, Request{V: core.WireVersion, ID: id, Tool: tool, Args: args, MaxSeconds: max.Seconds()})
	if err != nil {
		return nil, err
	}
	return &Pending{ID: id, c: c, ch: ch}, nil
}

// Wait waits for the result. When ctx ends first the request is
// cancelled (SIGTERM to its process group) and Wait keeps waiting for the
// honest result, which the server always sends.
func (p *Pending) Wait(ctx context.Context) (Result, error) {
	select {
	case rep, ok := <-p.ch:
		return toResult(p.ID, rep, ok, p.c)
	case <-ctx.Done():
		p.c.Cancel(context.Background(), p.ID)
		rep, ok := <-p.ch
		return toResult(p.ID, rep, ok, p.c)
	}
}

func toResult(id string, rep Reply, ok bool, c *Client) (Result, error) {
	if !ok {
		c.mu.Lock()
		defer c.mu.Unlock()
		return Result{ID: id}, c.err
	}
	return Result{ID: id, OK: rep.OK != nil && *rep.OK, Data: rep.Result, Err: rep.Error}, nil
}

// Call runs one tool and waits for its result. A tool's own failure is in
// Result.Err; the error return is for transport failures. When ctx has a
// deadline, the remaining time caps the request's process timeout on the
// server (max_seconds), so the budget holds even if the caller stalls.
func (c *Client) Call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	var limit time.Duration
	if d, ok := ctx.Deadline(); ok {
		limit = max(time.Until(d), time.Millisecond)
	}
	p, err := c.StartWithin(tool, args, limit)
	if err != nil {
		return Result{}, err
	}
	return p.Wait(ctx)
}

// Cancel asks the server to stop request id gracefully (SIGTERM to its
// process group); survivors are reported on Stopping after the grace.
func (c *Client) Cancel(ctx context.Context, id string) error {
	return c.control(ctx, Control{Control: "cancel", Target: id})
}

// Kill force-stops request id's process group and descendants.
func (c *Client) Kill(ctx context.Context, id string) error {
	return c.control(ctx, Control{Control: "kill", Target: id})
}

func (c *Client) control(ctx context.Context, ctl Control) error {
	ctl.V, ctl.ID = core.WireVersion, "c"+c.NextID()[1:]
	ch, err := c.send(ctl.ID, ctl)
	if err != nil {
		return err
	}
	select {
	case rep, ok := <-ch:
		if !ok {
			return c.err
		}
		if rep.Error != nil {
			return rep.Error
		}
		return nil
	case <-ctx.Done():
		return core.Errorf(core.CodeCancelled, "gave up waiting for the control answer")
	}
}

// Close ends the session: the server sees EOF, stops its owned process
// groups and exits; Close waits for that.
func (c *Client) Close() error {
	c.closer.Close()
	<-c.done
	if c.finish != nil {
		return c.finish()
	}
	return nil
}

// KillServer force-stops the fluzo-tool child itself (SIGKILL), for an
// owner whose bounded wait for Close ran out; the kernel then kills its
// children (parent-death signal). No-op for an in-process server.
func (c *Client) KillServer() {
	if c.server != nil {
		c.server.Kill()
	}
}

// KillPID asks the server to kill the process group owning pid; the server
// refuses (not_owned) any pid outside the groups it started.
func (c *Client) KillPID(ctx context.Context, pid int) error {
	return c.control(ctx, Control{Control: "kill", PID: pid})
}
