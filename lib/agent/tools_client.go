package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
)

// toolClient is the Tools seam over a fluzo-tool serve child. It remembers
// the request in flight so that cancel and force stop reach exactly the
// process group fluzo-tool owns for it.
type toolClient struct {
	C       *tools.Client
	schemas json.RawMessage

	mu      sync.Mutex
	current string
	// onStopping is told when a cancelled request left processes that
	// did not end within the grace period.
	onStopping func(target string, survivors any)
	quit       chan struct{}
}

// OnStopping sets the handler of "stopping" reports.
func (t *toolClient) OnStopping(f func(target string, survivors any)) {
	t.mu.Lock()
	t.onStopping = f
	t.mu.Unlock()
}

// watchStopping forwards the server's stopping reports until it exits.
func (t *toolClient) watchStopping() {
	for {
		var rep tools.Reply
		select {
		case rep = <-t.C.Stopping:
		case <-t.quit:
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

// startToolServer spawns "fluzo-tool serve --root root": the fluzo-tool
// beside this executable when there is one, else the one on PATH.
func startToolServer(ctx context.Context, root string, extra ...string) (*toolClient, error) {
	bin := ""
	if exe, err := os.Executable(); err == nil {
		if cand := filepath.Join(filepath.Dir(exe), "fluzo-tool"); isExecutable(cand) {
			bin = cand
		}
	}
	c, err := tools.StartServer(ctx, root, bin, extra...)
	if err != nil {
		return nil, err
	}
	schemas, _ := core.MarshalVerbatim(tools.Schemas())
	t := &toolClient{C: c, schemas: schemas, quit: make(chan struct{})}
	go t.watchStopping()
	return t, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// Call runs one tool; a tool's own failure is a failed outcome, a broken
// pipe is an error.
func (t *toolClient) Call(ctx context.Context, tool string, args json.RawMessage) (toolOutcome, error) {
	p, err := t.C.Start(tool, args)
	if err != nil {
		return toolOutcome{}, err
	}
	t.mu.Lock()
	t.current = p.ID
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.current = ""
		t.mu.Unlock()
	}()
	// When ctx ends, the server is asked to stop the request gracefully;
	// the result is still awaited (partial output kept).
	done := make(chan struct{})
	defer close(done)
	go t.cancelOnDone(ctx, p.ID, done)
	res, err := p.Wait(context.WithoutCancel(ctx))
	if err != nil {
		return toolOutcome{}, err
	}
	return toolOutcome{OK: res.OK, Result: res.Data, Error: res.Err}, nil
}

// cancelOnDone asks the server to cancel request id once ctx ends. The
// request may not have started its process yet when ctx ends, so the
// cancel is repeated until it lands or the result arrives.
func (t *toolClient) cancelOnDone(ctx context.Context, id string, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := t.C.Cancel(cctx, id)
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
		return t.C.Cancel(ctx, id)
	}
	return nil
}

// Kill force-stops the in-flight request's verified owned process group.
func (t *toolClient) Kill(ctx context.Context) error {
	if id := t.inFlight(); id != "" {
		return t.C.Kill(ctx, id)
	}
	return nil
}

// Schemas are the model-visible tool definitions.
func (t *toolClient) Schemas() json.RawMessage { return t.schemas }

// Close ends the child: it stops its processes and exits.
func (t *toolClient) Close() error {
	if t.quit != nil {
		close(t.quit)
	}
	return t.C.Close()
}
