package agent

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/control"
	"github.com/josecorral/fluzo/lib/core"
)

// activeTask is the task an owner is running, as the control socket sees
// it.
type activeTask struct {
	mu      sync.Mutex
	refs    Refs
	started time.Time
	state   string
	// waitingOn is the operation whose approval the task waits for
	// (state "waiting"); empty otherwise.
	waitingOn string
	budget    *admit.Budget // the running attempt's, for the diagnose answer
	cancel    context.CancelFunc
	tools     Tools
	gate      *policyGate
	diff      func(context.Context, []string) (json.RawMessage, error) // the port's live diff query
}

func (t *activeTask) set(refs Refs, cancel context.CancelFunc, tools Tools, gate *policyGate) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refs, t.cancel, t.tools, t.gate, t.started, t.state = refs, cancel, tools, gate, time.Now(), "running"
}

func (t *activeTask) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refs, t.cancel, t.tools, t.gate, t.state, t.waitingOn = Refs{}, nil, nil, nil, "", ""
}

// gate returns the running task's policy gate (nil when idle).
func (w *Owner) gate() *policyGate {
	w.active.mu.Lock()
	defer w.active.mu.Unlock()
	return w.active.gate
}

// running returns the ids of the running task (zero when idle).
func (w *Owner) running() Refs {
	w.active.mu.Lock()
	defer w.active.mu.Unlock()
	return w.active.refs
}

// controlHandlers are the owner's control-socket commands: one handler
// per command.
func (w *Owner) controlHandlers() map[string]control.Handler {
	return map[string]control.Handler{
		"status":     w.ctlStatus,
		"cancel":     w.ctlCancel,
		"force_stop": w.ctlForceStop,
	}
}

// ServeControl opens the control socket for this owner; Close stops it.
func (w *Owner) ServeControl() error {
	srv, err := control.Listen(w.Root, w.controlHandlers())
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.closers = append(w.closers, srv.Close)
	w.mu.Unlock()
	return nil
}

func (w *Owner) ctlStatus(ctx context.Context, raw []byte) (any, error) {
	var a struct{ core.Command }
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	t := &w.active
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]any{"root": w.Root, "pid": os.Getpid(), "state": "idle"}
	if t.refs.Task != "" {
		out["state"], out["task"], out["attempt"], out["session"], out["running_for"] = t.state, t.refs.Task, t.refs.Attempt, t.refs.Session, time.Since(t.started).Round(time.Millisecond).String()
		if t.waitingOn != "" {
			out["waiting"] = map[string]string{"reason": "permission", "operation": t.waitingOn}
		}
	}
	return out, nil
}

type taskArgs struct {
	core.Command
	Task string `json:"task"`
	Yes  bool   `json:"yes,omitempty"`
}

// target decodes a task command and checks it names the running task.
func (w *Owner) target(raw []byte) (taskArgs, *activeTask, error) {
	var a taskArgs
	if err := core.DecodeStrict(raw, &a); err != nil {
		return a, nil, err
	}
	t := &w.active
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.refs.Task == "" || t.refs.Task != a.Task {
		return a, nil, core.Errorf(core.CodeNotFound, "task %s is not running in this owner", a.Task).
			WithHint("'fluzo-agent status' shows the running task")
	}
	return a, t, nil
}

// ctlCancel stops new work: the context ends, the provider request closes
// and fluzo-tool ends the running command gracefully; edits stay.
func (w *Owner) ctlCancel(ctx context.Context, raw []byte) (any, error) {
	a, t, err := w.target(raw)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.state = "stopping"
	cancel := t.cancel
	t.mu.Unlock()
	cancel()
	return map[string]any{"task": a.Task, "state": "stopping"}, nil
}

// ctlForceStop kills the verified owned process group of the running
// command, then cancels. It needs explicit confirmation.
func (w *Owner) ctlForceStop(ctx context.Context, raw []byte) (any, error) {
	a, t, err := w.target(raw)
	if err != nil {
		return nil, err
	}
	if !a.Yes {
		return nil, core.Errorf(core.CodeConfirmationRequired, "force stop kills the task's processes without waiting for them").
			WithHint("send \"yes\":true to confirm")
	}
	t.mu.Lock()
	t.state = "stopping"
	cancel, tools := t.cancel, t.tools
	t.mu.Unlock()
	if tools != nil {
		tools.Kill(ctx)
	}
	cancel()
	return map[string]any{"task": a.Task, "state": "stopping", "forced": true}, nil
}

// cancelRunning cancels the running task, if any (the port's shutdown).
func (w *Owner) cancelRunning() {
	t := &w.active
	t.mu.Lock()
	cancel := t.cancel
	if cancel != nil {
		t.state = "stopping"
	}
	t.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// killRunning force-stops the running task's in-flight command, if any.
func (w *Owner) killRunning() {
	t := &w.active
	t.mu.Lock()
	tools := t.tools
	t.mu.Unlock()
	if tools != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		tools.Kill(ctx)
	}
}
