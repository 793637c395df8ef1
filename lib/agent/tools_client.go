package agent

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/proc"
)

// toolClient is the Tools seam over a fluzo-tool serve child. It remembers
// the request in flight so that cancel and force stop reach exactly the
// process group fluzo-tool owns for it.
type toolClient struct {
	C       *tools.Client
	schemas json.RawMessage
	// backend starts the child again after it was lost (nil: an
	// in-process server, which cannot be restarted).
	backend *backendSpec
	// hello is the backend's identity from its handshake.
	hello tools.Hello

	mu      sync.Mutex
	current string
	// forced is set by Kill: a request that starts after a force stop
	// (its process may not have been sent yet when the stop came) is
	// killed as soon as its id is known.
	forced bool
	// onStopping is told when a cancelled request left processes that
	// did not end within the grace period.
	onStopping func(target string, survivors any)
	// onStrays is told what the owner ended of a tool tree that outlived
	// its server.
	onStrays func(*strayReport)
	quit     chan struct{}
}

// OnStopping sets the handler of "stopping" reports.
func (t *toolClient) OnStopping(f func(target string, survivors any)) {
	t.mu.Lock()
	t.onStopping = f
	t.mu.Unlock()
}

// OnStrays sets the handler of stray reports.
func (t *toolClient) OnStrays(f func(*strayReport)) {
	t.mu.Lock()
	t.onStrays = f
	t.mu.Unlock()
}

// endStrays ends what a finished tool server left behind and reports it
// (always when forced: the server itself had to be killed).
func (t *toolClient) endStrays(reason string, forced bool) {
	rep := endToolStrays(reason)
	if rep == nil && forced {
		rep = &strayReport{Reason: reason, Ended: []proc.Survivor{}}
	}
	t.mu.Lock()
	f := t.onStrays
	t.mu.Unlock()
	if rep != nil && f != nil {
		f(rep)
	}
}

// client is the live tools client (Restart replaces it).
func (t *toolClient) client() *tools.Client {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.C
}

// watchStopping forwards c's stopping reports until quit closes.
func (t *toolClient) watchStopping(c *tools.Client, quit <-chan struct{}) {
	for {
		var rep tools.Reply
		select {
		case rep = <-c.Stopping:
		case <-quit:
			return
		}
		t.mu.Lock()
		f := t.onStopping
		t.mu.Unlock()
		if f != nil {
			f(rep.Target, rep.Survivors)
		}
	}
}

// startToolServer starts the tool backend spec describes and opens the
// session with the handshake: the protocol revisions must match, and the
// runtime's settings apply before any tool runs.
func startToolServer(ctx context.Context, spec *backendSpec) (*toolClient, error) {
	adoptToolOrphans()
	c, err := spec.launch(ctx)
	if err != nil {
		return nil, err
	}
	return openToolServer(ctx, spec, c)
}

// openToolServer completes the start of a launched backend.
func openToolServer(ctx context.Context, spec *backendSpec, launched *tools.Client) (*toolClient, error) {
	c, hello, err := spec.handshake(ctx, launched)
	if err != nil {
		return nil, err
	}
	schemas, _ := core.MarshalVerbatim(tools.Schemas())
	t := &toolClient{C: c, schemas: schemas, backend: spec, hello: hello, quit: make(chan struct{})}
	go t.watchStopping(c, t.quit)
	return t, nil
}

// Restart replaces a lost fluzo-tool child with a new one. The old
// child's processes are not touched: they belong to a session that ended.
// The new backend must be the same workspace (host and root).
func (t *toolClient) Restart(ctx context.Context) error {
	if t.backend == nil {
		return core.Errorf(core.CodeFailed, "the in-process tool backend cannot be restarted")
	}
	c, hello, err := t.backend.start(ctx)
	if err != nil {
		return err
	}
	if hello.Host != t.hello.Host || hello.Root != t.hello.Root {
		c.Close()
		return core.Errorf(core.CodeFailed, "the restarted tool backend is %s:%s, not %s:%s", hello.Host, hello.Root, t.hello.Host, t.hello.Root).
			WithHint("a backend command must always reach the same workspace")
	}
	t.mu.Lock()
	old, quit := t.C, t.quit
	t.C, t.quit, t.current, t.hello = c, make(chan struct{}), "", hello
	go t.watchStopping(c, t.quit)
	t.mu.Unlock()
	if quit != nil {
		close(quit)
	}
	old.Close() // reaps the dead child
	// Its children died with it; their orphans were handed to this
	// owner and must not keep working beside the new backend.
	t.endStrays("tool_backend_lost", false)
	return nil
}

// errBackendLost is the error of a call whose tool backend vanished.
// sent says the request may have reached it, so the call may have had
// effect: its outcome is unknown, never a failure.
type errBackendLost struct {
	sent  bool
	cause error
}

func (e *errBackendLost) Error() string {
	return "the tool backend (fluzo-tool serve) exited: " + e.cause.Error()
}

// Call runs one tool; a tool's own failure is a failed outcome, a broken
// pipe is an error (an *errBackendLost when the child is gone).
func (t *toolClient) Call(ctx context.Context, tool string, args json.RawMessage) (toolOutcome, error) {
	c := t.client()
	if c.Lost() {
		return toolOutcome{}, &errBackendLost{cause: core.Errorf(core.CodeFailed, "it was gone before the request was sent")}
	}
	p, err := c.Start(tool, args)
	if err != nil {
		return toolOutcome{}, t.lostOr(c, err)
	}
	t.mu.Lock()
	t.current = p.ID
	forced := t.forced
	t.mu.Unlock()
	if forced {
		t.killRequest(c, p.ID)
	}
	defer func() {
		t.mu.Lock()
		t.current = ""
		t.mu.Unlock()
	}()
	// When ctx ends, the server is asked to stop the request gracefully;
	// the result is still awaited (partial output kept).
	done := make(chan struct{})
	defer close(done)
	go t.cancelOnDone(ctx, c, p.ID, done)
	res, err := p.Wait(context.WithoutCancel(ctx))
	if err != nil {
		return toolOutcome{}, t.lostOr(c, err)
	}
	return toolOutcome{OK: res.OK, Result: res.Data, Error: res.Err}, nil
}

// lostOr classifies a transport error after the request may have been
// written: a dead child makes it an unknown outcome.
func (t *toolClient) lostOr(c *tools.Client, err error) error {
	// A write to a dead child fails before its output is seen to end:
	// give the reader a moment to notice.
	for i := 0; i < 100 && !c.Lost(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if c.Lost() {
		return &errBackendLost{sent: true, cause: err}
	}
	return err
}

// cancelOnDone asks the server to cancel request id once ctx ends. The
// request may not have started its process yet when ctx ends, so the
// cancel is repeated until it lands or the result arrives.
func (t *toolClient) cancelOnDone(ctx context.Context, c *tools.Client, id string, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Cancel(cctx, id)
		cancel()
		if err == nil {
			return
		}
		select {
		case <-done:
			return
		case <-tick.C:
		}
	}
}

func (t *toolClient) inFlight() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.current
}

// Cancel asks fluzo-tool to end the in-flight request's processes
// gracefully (SIGTERM, grace, report survivors).
func (t *toolClient) Cancel(ctx context.Context) error {
	if id := t.inFlight(); id != "" {
		return t.client().Cancel(ctx, id)
	}
	return nil
}

// Kill force-stops the in-flight request's verified owned process group,
// and any request started after it: the stop can come between the call's
// dispatch and its request id being known, and must not be lost there.
func (t *toolClient) Kill(ctx context.Context) error {
	t.mu.Lock()
	t.forced = true
	id, c := t.current, t.C
	t.mu.Unlock()
	if id != "" {
		return c.Kill(ctx, id)
	}
	return nil
}

// killRequest force-stops request id of a task already force-stopped.
// The server holds a kill that arrives before the request's process
// starts and applies it when it does.
func (t *toolClient) killRequest(c *tools.Client, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c.Kill(ctx, id)
}

// Query asks the backend one read-only workspace query; a vanished
// backend is an *errBackendLost.
func (t *toolClient) Query(ctx context.Context, name string, args, out any) error {
	c := t.client()
	if c.Lost() {
		return &errBackendLost{cause: core.Errorf(core.CodeFailed, "it was gone before the query was sent")}
	}
	err := c.Query(ctx, name, args, out)
	var transport *tools.TransportError
	if errors.As(err, &transport) {
		return t.lostOr(c, transport.Err)
	}
	return err
}

// Schemas are the model-visible tool definitions.
func (t *toolClient) Schemas() json.RawMessage { return t.schemas }

// Close ends the child: it stops its processes and exits. The wait is
// bounded (a server that does not exit in time is killed), and whatever
// of its tree outlived it is ended, so that when Close returns no process
// of the tool tree is left to write into the workspace.
func (t *toolClient) Close() error {
	t.mu.Lock()
	c, quit := t.C, t.quit
	t.quit = nil
	t.mu.Unlock()
	if quit != nil {
		close(quit)
	}
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	var err error
	select {
	case err = <-closed:
		t.endStrays("tool_backend_exited", false)
	case <-time.After(serverExitWait):
		c.KillServer()
		err = <-closed
		t.endStrays("tool_backend_killed_after_exit_wait", true)
	}
	return err
}
