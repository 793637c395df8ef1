package agent

import (
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/josecorral/fluzo/lib/control"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/policy"
	"github.com/josecorral/fluzo/lib/store"
)

// Port is the JSONL application port (fluzo-agent serve): commands in,
// acks, errors, events and results out. Acknowledgement is not
// completion: outcomes arrive as events and a result record.
type Port struct {
	Owner *Owner

	outMu sync.Mutex
	out   *json.Encoder

	mu      sync.Mutex
	running bool
	inbox   *Inbox
	pending *portApproval
	yolo    bool
	wg      sync.WaitGroup
}

// portApproval is the one approval a running task waits for.
type portApproval struct {
	op       PendingApproval
	answer   chan Decision
	answered bool
}

// NewPort returns a port writing to out; pass its Emit as the owner's.
func NewPort(out io.Writer) *Port { return &Port{out: json.NewEncoder(out)} }

// Emit writes one record (event, live update, ack, result) as a line.
func (p *Port) Emit(v any) {
	p.outMu.Lock()
	defer p.outMu.Unlock()
	p.out.Encode(v)
}

// Serve reads commands until in ends or ctx ends (a signal), then cancels
// the running task and waits for it, within a bound, so that serve exits
// and releases the workspace even while a task waits for an approval
// nobody can give any more.
func (p *Port) Serve(ctx context.Context, in io.Reader) error {
	handlers := p.handlers()
	lines := make(chan commandLine)
	go readCommands(in, maxCommandLine, lines)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				p.shutdown(shutdownBound)
				return nil
			}
			if l.tooLong {
				p.Emit(core.NewErrorRecord("", lineTooLong(l.bytes)))
				continue
			}
			if len(l.data) > 0 {
				p.Emit(control.Dispatch(ctx, handlers, l.data))
			}
		case <-ctx.Done():
			p.shutdown(shutdownBound)
			return nil
		}
	}
}

func (p *Port) handlers() map[string]control.Handler {
	return map[string]control.Handler{
		"start_task":            p.startTask,
		"approve":               p.approve,
		"deny":                  p.deny,
		"queue_intervention":    p.queueIntervention,
		"edit_intervention":     p.editIntervention,
		"withdraw_intervention": p.withdrawIntervention,
		"resume_preview":        p.resumePreview,
		"sessions":              p.sessions,
		"set_yolo":              p.setYolo,
		"cancel":                p.Owner.ctlCancel,
		"force_stop":            p.Owner.ctlForceStop,
		"status":                p.Owner.ctlStatus,
		"tasks":                 p.tasks,
		"task":                  p.task,
		"events":                p.events,
		"subscribe":             p.subscribe,
		"settings":              p.settings,
		"config_change":         p.configChange,
		"capacity":              p.capacity,
		"diff":                  p.diff,
		"revoke_grant":          p.revokeGrant,
		"resume":                p.resume,
		"diagnose":              p.diagnose,
		"replay":                p.replay,
		"new_session":           p.newSession,
		"session":               p.session,
		"review":                p.review,
		"accept":                p.accept,
		"reject":                p.reject,
		"repair":                p.repair,
	}
}

type startArgs struct {
	core.Command
	Request string   `json:"request"`
	Session string   `json:"session,omitempty"` // "" starts a new session
	Verify  string   `json:"verify,omitempty"`
	Allow   []string `json:"allow,omitempty"`
	// NoVerify waives verification explicitly, as --no-verify does.
	NoVerify bool `json:"no_verify,omitempty"`
	// Worktree runs the task in its own git worktree, as --worktree does.
	Worktree bool `json:"worktree,omitempty"`
}

// startTask starts one task in the background; its events and result
// follow on the port.
func (p *Port) startTask(ctx context.Context, raw []byte) (any, error) {
	var a startArgs
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Request == "" {
		return nil, core.Errorf(core.CodeInvalidRequest, "start_task needs a request").WithHint(`send "request":"what to do"`)
	}
	if err := p.checkSession(ctx, a.Session); err != nil {
		return nil, err
	}
	return p.launch(func(opts TaskOptions) Result {
		opts.Session = a.Session
		opts.Request, opts.Verify, opts.Allow, opts.NoVerify, opts.Worktree = a.Request, a.Verify, a.Allow, a.NoVerify, a.Worktree
		return p.Owner.Run(context.WithoutCancel(ctx), opts)
	})
}

// launch runs one task in the background; its events and result follow
// on the port. One task at a time: the owner is the workspace's writer.
func (p *Port) launch(run func(TaskOptions) Result) (any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		return nil, core.Errorf(core.CodeWorkspaceBusy, "a task is already running in this workspace").
			WithHint("wait for its result, or cancel it")
	}
	p.adoptNext() // a configuration applied while the last task ran
	p.running, p.inbox = true, &Inbox{}
	opts := TaskOptions{Yolo: p.yolo, Approver: p, Inbox: p.inbox}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		res := run(opts)
		p.mu.Lock()
		p.running, p.pending = false, nil
		p.mu.Unlock()
		p.Emit(res)
	}()
	return map[string]any{"state": "starting"}, nil
}

// expect registers the operation about to be announced as waiting for
// approval, so an answer racing the announcement is not stale.
func (p *Port) expect(op PendingApproval) {
	p.mu.Lock()
	p.pending = &portApproval{op: op, answer: make(chan Decision, 1)}
	p.mu.Unlock()
}

// Approve implements approver: it waits for approve or deny of the
// expected operation (or cancellation).
func (p *Port) Approve(ctx context.Context, refs Refs, op PendingApproval) (Decision, error) {
	p.mu.Lock()
	pa := p.pending
	if pa == nil || pa.op.Operation != op.Operation {
		pa = &portApproval{op: op, answer: make(chan Decision, 1)}
		p.pending = pa
	}
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		if p.pending == pa {
			p.pending = nil
		}
		p.mu.Unlock()
	}()
	select {
	case d := <-pa.answer:
		return d, nil
	case <-ctx.Done():
		return Decision{}, ctx.Err()
	}
}

type answerArgs struct {
	core.Command
	Operation string `json:"operation"`
	Scope     string `json:"scope,omitempty"` // once (default) or task
}

// take returns the pending approval when it is for operation; an answer
// for any other operation is stale.
func (p *Port) take(a answerArgs) (*portApproval, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending == nil || p.pending.answered || p.pending.op.Operation != a.Operation {
		return nil, core.Errorf(core.CodeInvalidRequest, "operation %s is not waiting for approval (stale approval)", a.Operation).
			WithHint("answer the operation named by the latest permission.requested event")
	}
	// The answer is buffered; Approve takes it and clears the pending slot.
	p.pending.answered = true
	return p.pending, nil
}

func (p *Port) approve(ctx context.Context, raw []byte) (any, error) {
	var a answerArgs
	if err := core.DecodeCommand(raw, &a, "operation"); err != nil {
		return nil, err
	}
	if a.Scope != "" && a.Scope != "once" && a.Scope != "task" {
		return nil, core.Errorf(core.CodeInvalidRequest, "scope must be once or task, not %q", a.Scope)
	}
	pa, err := p.take(a)
	if err != nil {
		return nil, err
	}
	d := Decision{Verdict: verdictAllow, Rule: "approved by the user (" + orOnce(a.Scope) + ")", Reason: "user_approval"}
	ack := map[string]any{"operation": a.Operation, "verdict": verdictAllow, "scope": orOnce(a.Scope)}
	if a.Scope == "task" {
		id, err := p.grantForTask(ctx, pa.op)
		if err != nil {
			// Still waiting: the client may answer again.
			p.mu.Lock()
			pa.answered = false
			p.mu.Unlock()
			return nil, err
		}
		d.GrantID, ack["grant"] = id, id
	}
	pa.answer <- d
	return ack, nil
}

// grantForTask stores a task grant for exactly the approved operation
// (so revoke_grant can end it) and activates it in the running task.
func (p *Port) grantForTask(ctx context.Context, op PendingApproval) (string, error) {
	refs, gate := p.Owner.running(), p.Owner.gate()
	if gate == nil || refs.Task == "" {
		return "", core.Errorf(core.CodeInvalidRequest, "the task ended before its approval was answered")
	}
	pop := OperationFor(op.Tool, op.Args)
	spec := policy.SpecFor(pop)
	g := core.Grant{ID: core.NewID(core.KindGrant), TaskID: refs.Task, Scope: core.GrantTask, Spec: spec.String(), Source: "user"}
	j := &storeJournal{S: p.Owner.Store, Emit: func(ev core.Event) { p.Emit(ev) }}
	if err := j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error { return add(tx.IssueGrant(&g)) }); err != nil {
		return "", err
	}
	gate.addGrant(policy.Grant{ID: g.ID, Scope: core.GrantTask, Spec: spec, Source: "user"})
	return g.ID, nil
}

func orOnce(s string) string {
	if s == "" {
		return "once"
	}
	return s
}

func (p *Port) deny(ctx context.Context, raw []byte) (any, error) {
	var a answerArgs
	if err := core.DecodeCommand(raw, &a, "operation"); err != nil {
		return nil, err
	}
	pa, err := p.take(a)
	if err != nil {
		return nil, err
	}
	pa.answer <- Decision{Verdict: verdictDeny, Rule: "denied by the user", Reason: "user_denial"}
	return map[string]any{"operation": a.Operation, "verdict": verdictDeny}, nil
}

func (p *Port) queueIntervention(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Text string `json:"text"`
	}
	if err := core.DecodeCommand(raw, &a, "text"); err != nil {
		return nil, err
	}
	p.mu.Lock()
	inbox := p.inbox
	p.mu.Unlock()
	if inbox == nil {
		return nil, core.Errorf(core.CodeInvalidRequest, "no task has started, so there is nobody to deliver an intervention to").
			WithHint("start a task first")
	}
	in := inbox.queue(a.Text)
	return map[string]any{"intervention": in.ID, "state": "queued"}, nil
}

func (p *Port) editIntervention(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Intervention string `json:"intervention"`
		Text         string `json:"text"`
	}
	if err := core.DecodeCommand(raw, &a, "intervention", "text"); err != nil {
		return nil, err
	}
	p.mu.Lock()
	inbox := p.inbox
	p.mu.Unlock()
	if inbox == nil {
		return nil, core.Errorf(core.CodeNotFound, "no intervention %s", a.Intervention)
	}
	if err := inbox.edit(ctx, a.Intervention, a.Text); err != nil {
		return nil, err
	}
	return map[string]any{"intervention": a.Intervention, "state": "queued"}, nil
}

// withdrawIntervention takes a queued intervention back before the agent
// receives it; once delivered it is refused (the refusal says so).
func (p *Port) withdrawIntervention(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Intervention string `json:"intervention"`
	}
	if err := core.DecodeCommand(raw, &a, "intervention"); err != nil {
		return nil, err
	}
	p.mu.Lock()
	inbox := p.inbox
	p.mu.Unlock()
	if inbox == nil {
		return nil, core.Errorf(core.CodeNotFound, "no intervention %s", a.Intervention)
	}
	if err := inbox.withdraw(ctx, a.Intervention); err != nil {
		return nil, err
	}
	return map[string]any{"intervention": a.Intervention, "state": "withdrawn"}, nil
}

// setYolo switches YOLO for this session: announced on the port, applied
// to the running task and the next ones, never persisted.
func (p *Port) setYolo(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		On bool `json:"on"`
	}
	if err := core.DecodeCommand(raw, &a, "on"); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.yolo = a.On
	p.mu.Unlock()
	if gate := p.Owner.gate(); gate != nil {
		gate.setYolo(a.On)
	}
	// Audited whether or not a task runs: an idle switch is a
	// session-less event that still applies to the next task.
	refs := p.Owner.running()
	if _, err := (&storeJournal{S: p.Owner.Store, Emit: func(ev core.Event) { p.Emit(ev) }}).Record(ctx, refs, core.EvYolo, map[string]any{"on": a.On, "scope": "session"}); err != nil {
		return nil, err
	}
	return map[string]any{"yolo": a.On, "scope": "session"}, nil
}

// tasks lists the workspace's tasks, oldest session first.
func (p *Port) tasks(ctx context.Context, raw []byte) (any, error) {
	var a struct{ core.Command }
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	out, err := p.allTasks(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{"tasks": out}, nil
}
