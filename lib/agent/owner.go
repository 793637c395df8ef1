package agent

import (
	"context"
	"os"
	"sync"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/control"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/policy"
	"github.com/josecorral/fluzo/lib/provider"
	"github.com/josecorral/fluzo/lib/provider/laya"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/worktree"
)

// OwnerOptions select the workspace and configuration of an owner.
type OwnerOptions struct {
	Dir        string
	ConfigFile string
	Overrides  []string
	// Emit receives every committed event (core.Event) and every live
	// record, in order.
	Emit func(any)
	// Telemetry, when set, starts the telemetry runtime from [telemetry]
	// and reports this execution mode (headless, demo); "" starts none.
	Telemetry string
	// Consent records the user's consent for this configuration now
	// (--consent); without it an unconsented configuration fails with
	// configuration_required before anything is opened or contacted.
	Consent bool
	// ConsentDir is the consent store ("" = consent.DefaultDir()).
	ConsentDir string
	// PrestartBackend starts the tool server of an in-place task while
	// the store opens (backend_prestart.go): a headless run's one task.
	PrestartBackend bool
}

// Owner is the runtime owner of one workspace: the only process that
// executes work and writes execution state there.
type Owner struct {
	Root     string
	Config   *config.Config
	Store    *store.Store
	Recovery store.RecoveryReport
	emit     func(any)
	active   activeTask
	// admission is this process's model/pool admission.
	admission *admit.Admission
	// observer is the session's Laya shadow observer (nil when disabled);
	// observing returns the ids of the task it currently observes.
	observer  *laya.Observer
	observing func() Refs
	mu        sync.Mutex
	closers   []func() error
	// Telemetry instruments this owner's runs (nil: none).
	Telemetry *Telemetry
	// consent is the user's recorded consent for Config.
	consent consent.Record
	// lock is the workspace lock's file: each tool server holds a
	// duplicate, so a killed owner's lock outlives its commands.
	lock *os.File
	// settings is the session's configuration as port clients change it
	// (owner_config.go).
	settings settingsState
	// prestarted is the in-place task's tool server, started at open
	// (nil: none).
	prestarted *prestartedBackend
}

// OpenOwner validates configuration, opens the store and applies the
// restart rules of §22.1 (running attempts become interrupted, unresolved
// operations unknown). It executes nothing and contacts no provider.
func OpenOwner(ctx context.Context, o OwnerOptions) (*Owner, error) {
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	ws, err := store.ResolveWorkspace(ctx, dir)
	if err != nil {
		return nil, err
	}
	markPhase("workspace_resolved")
	cfg, err := config.Open(config.Options{Workspace: ws.Root, File: o.ConfigFile, Overrides: o.Overrides})
	if err != nil {
		return nil, err
	}
	agreed, err := admitConsent(ws, cfg, o)
	if err != nil {
		return nil, err
	}
	if err := store.EnsureDrive(ctx, ws); err != nil {
		return nil, err
	}
	markPhase("drive_ready")
	// One writing owner per workspace across processes (flock); a second
	// one gets workspace_busy and touches nothing.
	own, err := admit.AcquireOwner(ws.Drive(), admit.OwnerOptions{Socket: control.SocketPath(ws.Root)})
	if err != nil {
		return nil, err
	}
	var pre *prestartedBackend
	if o.PrestartBackend {
		pre = prestartBackend(ctx, cfg, ws.Root, own.LockFile())
	}
	// EnsureDrive above confirmed the drive's exclusion.
	st, err := store.OpenEnsured(ctx, ws)
	if err != nil {
		pre.drop()
		own.Release()
		return nil, err
	}
	markPhase("store_open")
	w := &Owner{Root: ws.Root, Config: cfg, Store: st, emit: o.Emit, admission: admit.New(cfg), consent: agreed,
		lock: own.LockFile(), settings: settingsState{ws: ws, opts: o, base: cfg}, prestarted: pre}
	// Closers run newest first: strays of any tool tree are ended before
	// the lock is released (each task's close has done so already; this
	// catches a tree whose client was never closed), and a prestarted
	// server no task took is ended before both.
	w.closers = append(w.closers, own.Release, func() error { endToolStrays("owner_closing"); return nil }, st.Close, pre.drop)
	if w.Recovery, err = st.Recover(ctx); err != nil {
		w.Close()
		return nil, err
	}
	if ev, ok, err := consent.AuditAdmitted(ctx, st, agreed); err != nil {
		w.Close()
		return nil, err
	} else if ok {
		w.send(ev)
	}
	if w.Recovery.Changed() {
		for _, ev := range recoveredEvents(ctx, st, w.Recovery) {
			w.send(ev)
		}
	}
	if err := w.startTelemetry(ctx, ws, o.Telemetry); err != nil {
		w.Close()
		return nil, err
	}
	markPhase("owner_open")
	return w, nil
}

// Close releases everything the owner opened, newest first.
func (w *Owner) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var first error
	for i := len(w.closers) - 1; i >= 0; i-- {
		if err := w.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	w.closers = nil
	return first
}

// TaskOptions describe one task run.
type TaskOptions struct {
	Session string
	Request string
	Verify  string // "" uses harness.verify_command
	// NoVerify waives the verification contract explicitly (--no-verify);
	// it cannot be combined with Verify.
	NoVerify bool
	Allow    []string // exact task-scoped grants (--allow)
	Yolo     bool
	MaxTurns int // 0 uses harness.max_turns
	Approver Approver
	Inbox    *Inbox
	Observe  func(point string, data any)
	grants   []core.Grant
	// resuming keeps the task's own verification contract (its command or
	// recorded waiver) unless Verify or NoVerify is given now.
	resuming bool
	// Worktree runs the task in a new git worktree of its own
	// (owner_worktree.go); repair/feedback continue an existing one.
	Worktree   bool
	repair     *worktree.Record
	feedback   string
	resumeTask string
	taskID     string
	worktree   *taskWorktree
	inWorktree bool
}

// Run executes one task to its result. Setup failures (bad grant spec,
// unreachable tool backend, model configuration) are returned as a
// result with the failure's status, so headless runs always end with one.
func (w *Owner) Run(ctx context.Context, t TaskOptions) Result {
	return w.execute(ctx, &t, func(ctx context.Context, r *Runner) Result {
		res := r.Run(ctx, taskStart{ID: t.taskID, Worktree: t.worktree, Session: t.Session, Request: t.Request, Verify: t.Verify, NoVerify: t.NoVerify, Config: w.Config.Text(), Sandbox: effectiveSandbox(w.Config, r.Backend), Grants: t.grants})
		if t.worktree != nil {
			b := t.worktree.binding()
			res.Worktree = &b
		}
		return res
	})
}

// Resume runs a new attempt of an interrupted or blocked task. Grants
// and YOLO of earlier attempts are not restored: only t.Allow and t.Yolo
// apply. Budget consumption carries forward.
func (w *Owner) Resume(ctx context.Context, task string, t TaskOptions) Result {
	if !w.Store.IdentityMatches() {
		err := core.Errorf(core.CodeInterrupted, "the workspace at %s is not the one task %s ran in (its device or inode changed)", w.Root, task).
			WithHint("resume from the original workspace")
		return Result{V: core.WireVersion, Type: "result", Status: string(core.CodeInterrupted), Task: task, Reason: "workspace_changed", Error: core.AsError(err)}
	}
	if _, err := w.resumeRoot(ctx, task); err != nil {
		return Result{V: core.WireVersion, Type: "result", Status: string(core.CodeOf(err)), Task: task, Reason: "workspace_changed", Error: core.AsError(err)}
	}
	t.resuming, t.resumeTask = true, task
	return w.execute(ctx, &t, func(ctx context.Context, r *Runner) Result {
		// The backend's tree is the one checked: the task's edits are
		// there, whether it is this machine's, a worktree or a remote one.
		if err := checkWorkspaceState(ctx, w.Store, task, r.Tools, r.Backend); err != nil {
			return Result{V: core.WireVersion, Type: "result", Status: string(core.CodeOf(err)), Task: task, Reason: "workspace_changed", Error: core.AsError(err)}
		}
		res := r.resume(ctx, r.Journal.(*storeJournal), task, t.grants, contract{verify: t.Verify, waived: t.NoVerify})
		w.nameWorktree(ctx, task, &res)
		return res
	})
}

func (w *Owner) execute(ctx context.Context, t *TaskOptions, body func(context.Context, *Runner) Result) Result {
	if err := w.admitStorage(ctx); err != nil {
		fe := core.AsError(err)
		reason, _ := fe.Details["reason"].(string)
		return notStarted(ctx, fe, reason)
	}
	r, cleanup, err := w.runner(ctx, t)
	if err != nil {
		return notStarted(ctx, core.AsError(err), "setup_failed")
	}
	defer cleanup()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var refs Refs
	if tc, ok := r.Tools.(*toolClient); ok {
		// Work that does not end on cancel stays "stopping", with the
		// processes that survived named in an event.
		tc.OnStopping(func(target string, survivors any) {
			w.active.mu.Lock()
			w.active.state = "stopping"
			w.active.mu.Unlock()
			(&storeJournal{S: w.Store, Emit: func(ev core.Event) { w.send(ev) }}).Record(context.Background(), refs, core.EvOperationStopping, map[string]any{"request": target, "survivors": survivors, "reason": "processes_survived_graceful_stop"})
		})
		// What outlived the tool server was ended before the task goes
		// on (restart) or ends (close); the record says what and why.
		tc.OnStrays(func(rep *strayReport) {
			(&storeJournal{S: w.Store, Emit: func(ev core.Event) { w.send(ev) }}).Record(context.Background(), refs, core.EvToolProcessesEnded, rep)
		})
	}
	r.OnStart = func(got Refs) {
		refs = got
		gate, _ := r.Policy.(*policyGate)
		w.active.set(got, cancel, r.Tools, gate)
		w.active.setDiff(r.Diff)
	}
	r.OnBudget = w.active.setBudget
	defer w.active.clear()
	obs, err := w.sessionObserver()
	w.active.mu.Lock()
	w.observing = func() Refs { return refs }
	w.active.mu.Unlock()
	if err != nil {
		return notStarted(ctx, core.AsError(err), "setup_failed")
	}
	if obs != nil {
		// Shadow only: the loop hands over a snapshot and never waits.
		r.Observe = func(point string, data any) {
			obs.Observe(point, data, laya.QuestionsAt(point), actionTaken(point, data))
		}
		defer obs.Wait()
	}
	return body(ctx, r)
}

// runner wires one task's runner to the real packages.
func (w *Owner) runner(ctx context.Context, t *TaskOptions) (*Runner, func(), error) {
	if t.NoVerify && t.Verify != "" {
		return nil, nil, core.Errorf(core.CodeInvalidRequest, "a verification command (%q) and a verification waiver were both given", t.Verify).
			WithHint("drop --no-verify to verify with the command, or drop --verify to waive verification")
	}
	// An explicit waiver overrides the configured command; it is recorded.
	if t.Verify == "" && !t.NoVerify && !t.resuming {
		t.Verify = w.Config.String("harness.verify_command")
	}
	if t.Verify == "" && !t.NoVerify && !t.resuming {
		t.Verify = VerifyFromRequest(t.Request)
	}
	pol, err := policy.FromConfig(w.Config)
	if err != nil {
		return nil, nil, err
	}
	var grants []policy.Grant
	t.grants = nil
	for _, text := range t.Allow {
		spec, err := policy.ParseSpec(text)
		if err != nil {
			return nil, nil, core.AsError(err).With("flag", "--allow")
		}
		g := policy.Grant{ID: core.NewID(core.KindGrant), Scope: core.GrantTask, Spec: spec, Source: "cli"}
		grants = append(grants, g)
		t.grants = append(t.grants, core.Grant{ID: g.ID, Scope: g.Scope, Spec: text, Source: g.Source})
	}
	model, mcfg, err := w.model()
	if err != nil {
		return nil, nil, err
	}
	root, undo, err := w.taskRoot(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	readable, err := w.toolReadable(ctx, t)
	if err != nil {
		undo()
		return nil, nil, err
	}
	// The backend is started first: the baseline is its tree's, read
	// through its queries like every other workspace read.
	tc, err := w.taskToolServer(ctx, root, readable, t.inWorktree)
	if err != nil {
		undo()
		return nil, nil, err
	}
	markPhase("backend_up")
	// The context's reads go out now and run while the baseline is read:
	// all are reads of the tree before anything ran in it.
	base, reads, err := readStart(ctx, tc)
	if err != nil {
		tc.Close()
		undo()
		return nil, nil, err
	}
	markPhase("baseline")
	gate := &policyGate{P: pol, Preexisting: t.preexisting(base.Preexisting)}
	gate.setGrants(grants)
	gate.setYolo(t.Yolo)
	maxTurns := t.MaxTurns
	if maxTurns <= 0 {
		maxTurns = int(w.Config.Int("harness.max_turns"))
	}
	r := &Runner{
		Model: model, ModelName: mcfg.Model, Tools: tc, Policy: gate, Approver: w.waitingFor(t.Approver), Inbox: t.Inbox, Observe: t.Observe,
		Journal: &storeJournal{S: w.Store, Emit: func(ev core.Event) { w.send(ev) }},
		Emit:    w.send,
		Root:    tc.hello.Root,
		Backend: backendIdentity(tc),
		Budgets: budgets{MaxTurns: maxTurns, MaxToolCalls: int(w.Config.Int("harness.max_tool_calls")),
			MaxTokens: w.Config.Int("harness.max_total_tokens"), MaxOutputTokens: int(mcfg.MaxOutputTokens),
			MaxActive: w.Config.Seconds("harness.max_active_seconds")},
		Context: contextLimits{Window: int(mcfg.ContextWindow), ReservedOutput: int(mcfg.MaxOutputTokens),
			Overhead: int(w.Config.Int("context.overhead_tokens")), Threshold: w.Config.Float("context.compaction_threshold")},
		ToolContextMaxBytes:  int(w.Config.Int("context.tool_context_max_bytes")),
		Diff:                 base.Diff,
		ShellTimeout:         w.Config.Seconds("harness.shell_timeout_seconds"),
		Admit:                w.admitter(w.Config.String("agent.model")),
		Telemetry:            w.Telemetry,
		VerificationAttempts: int(w.Config.Int("harness.verification_attempts")),
		MCPServers:           mcpServers(w.Config),
		Sandbox:              sandboxSettings(w.Config),
		startReads:           reads,
	}
	cleanup := func() {
		tc.Close()
		base.Close()
	}
	return r, cleanup, nil
}

// taskToolServer is the tool server of a task at root: the one started
// at open when the task runs in place, else a new one.
func (w *Owner) taskToolServer(ctx context.Context, root string, readable []string, inWorktree bool) (*toolClient, error) {
	if tc, used, err := w.prestarted.take(root, inWorktree); used {
		return tc, err
	}
	spec, err := w.taskBackend(root, readable, inWorktree)
	if err != nil {
		return nil, err
	}
	spec.Lock = w.lock
	return startToolServer(ctx, spec)
}

// model builds the provider client of agent.model.
func (w *Owner) model() (model, config.Model, error) {
	id := w.Config.String("agent.model")
	m, ok := w.Config.Model(id)
	if !ok {
		return nil, m, core.Errorf(core.CodeConfigurationRequired, "agent.model names %q, but there is no [models.%s] entry", id, id).
			WithHint("add a [models.%s] table with base_url and model to .fluzo", id)
	}
	key, err := w.Config.APIKey(id, os.Getenv)
	if err != nil {
		return nil, m, err
	}
	c, err := provider.New(provider.Endpoint{
		BaseURL: m.BaseURL, APIKey: provider.Secret(key),
		Timeouts: provider.Timeouts{Header: m.HeaderTimeout, FirstOutput: m.FirstOutputTimeout, Idle: m.IdleTimeout, Total: m.RequestTimeout},
		Retries:  int(w.Config.Int("harness.provider_retries")),
	})
	if err != nil {
		return nil, m, err
	}
	return &providerModel{Client: c, Name: m.Model}, m, nil
}

func (w *Owner) send(v any) {
	if w.emit != nil {
		w.emit(v)
	}
}

// admitter reserves foreground capacity of model for each request.
func (w *Owner) admitter(model string) func(context.Context, string) (slot, error) {
	return func(ctx context.Context, purpose string) (slot, error) {
		s, err := w.admission.Admit(ctx, admit.Request{Model: model, Class: admit.Foreground, Purpose: purpose})
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}

// actionTaken is what the runtime did at a decision point, recorded beside
// the observer's answers for evaluation.
func actionTaken(point string, data any) string {
	if point == "task_end" {
		if m, ok := data.(map[string]any); ok {
			if s, ok := m["status"].(string); ok {
				return s
			}
		}
	}
	return "continue"
}

// sessionObserver returns the session's shadow observer, creating it on
// first use, with the per-task count reset.
func (w *Owner) sessionObserver() (*laya.Observer, error) {
	if w.observer == nil {
		obs, err := w.layaObserver(func() Refs {
			w.active.mu.Lock()
			defer w.active.mu.Unlock()
			if w.observing == nil {
				return Refs{}
			}
			return w.observing()
		})
		if err != nil || obs == nil {
			return nil, err
		}
		w.observer = obs
	}
	w.observer.NewTask()
	return w.observer, nil
}

// notStarted is the result of a task that failed before it started. When
// the run was cancelled meanwhile (SIGTERM during the baseline's git
// status or the first write), what failed is the cancellation's doing:
// the result is cancelled, as it is once the task runs, never
// not_a_repository or storage_error blaming the workspace or the store.
func notStarted(ctx context.Context, fe *core.Error, reason string) Result {
	if ctx.Err() != nil {
		cut := core.Errorf(core.CodeCancelled, "the task was cancelled before it started (%s)", fe.Message)
		return Result{V: core.WireVersion, Type: "result", Status: string(core.CodeCancelled), Reason: "cancelled", Error: cut}
	}
	return Result{V: core.WireVersion, Type: "result", Status: string(fe.Code), Reason: reason, Error: fe}
}
