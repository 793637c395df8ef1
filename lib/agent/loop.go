package agent

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// Defaults for a run's limits; configuration overrides them.
const (
	defaultMaxTurns            = 40
	defaultMaxToolCalls        = 200
	defaultMaxOutputTokens     = 4096
	defaultToolContextMaxBytes = 16 << 10
)

// budgets are a task's finite limits, enforced by an admit.Budget (tool
// calls, tokens, active time) and the step limit (turns). Zero MaxTokens
// and MaxActive mean no such budget; the other zero values take defaults.
type budgets struct {
	MaxTurns        int
	MaxToolCalls    int
	MaxTokens       int64
	MaxOutputTokens int
	MaxActive       time.Duration
}

// unlimited stands for "no budget" in admit.Limits.
const unlimited = int64(1) << 60

func (b budgets) limits() admit.Limits {
	l := admit.Limits{Turns: unlimited, ToolCalls: int64(orDefault(b.MaxToolCalls, defaultMaxToolCalls)), Tokens: b.MaxTokens, Active: b.MaxActive}
	if l.Tokens <= 0 {
		l.Tokens = unlimited
	}
	if l.Active <= 0 {
		l.Active = time.Duration(unlimited)
	}
	return l
}

// Approver answers an AskUser decision interactively; a nil Approver is
// the headless mode, where AskUser becomes permission_required.
type Approver interface {
	Approve(ctx context.Context, refs Refs, p PendingApproval) (Decision, error)
}

// Runner runs tasks in one workspace. The caller (fluzo-agent) has
// validated configuration and holds workspace ownership.
type Runner struct {
	Model model
	// ModelName is recorded with each provider request.
	ModelName string
	Tools     Tools
	Policy    Policy
	Journal   journal
	Approver  Approver
	// Emit receives live records (never durable, never an outcome).
	Emit func(any)
	// Root is the workspace root as the tool backend resolved it.
	Root string
	// Backend is the tool backend's identity, recorded with each attempt
	// (nil: not known, e.g. a test's in-process server).
	Backend *BackendIdentity
	Budgets budgets
	Context contextLimits
	// ToolContextMaxBytes bounds one tool result in the model's context.
	ToolContextMaxBytes int
	// Diff summarizes changes against the baseline taken at start;
	// touched are the paths the task's own file tools wrote.
	Diff func(ctx context.Context, touched []string) (json.RawMessage, error)
	// Observe is called at decision points; it must not block (Laya).
	Observe func(point string, data any)
	// Inbox holds interventions for the running task (nil: none).
	Inbox *Inbox
	// OnStart is told the task's ids once they are recorded.
	OnStart func(Refs)
	// OnBudget is handed the attempt's budget once it exists, so the
	// port can show its meters while the task runs.
	OnBudget func(*admit.Budget)
	// ShellTimeout caps each command's run time (harness.shell_timeout_seconds);
	// zero leaves fluzo-tool's default.
	ShellTimeout time.Duration
	// Admit reserves model/pool capacity for one request (nil: none).
	Admit func(ctx context.Context, purpose string) (slot, error)
	// Telemetry instruments the run with spans, metrics and logs (nil: none).
	Telemetry *Telemetry
	// VerificationAttempts bounds the runs of the verification command in
	// one attempt (harness.verification_attempts; zero: the default).
	VerificationAttempts int
	// MCPServers are the configured MCP servers, started per attempt.
	MCPServers []config.MCPServer
	// Sandbox is [tools.sandbox], which confines the stdio MCP servers as
	// fluzo-tool confines commands (Mode "": unconfined).
	Sandbox sandbox.Settings
	// startReads are the initial context's backend reads, asked when the
	// backend came up (context_reads.go); nil asks them at the start.
	startReads *pendingReads
}

// receiptEvent is the durable form of a receipt: digests, sizes and
// sources, plus the artifact holding the content.
type receiptEvent struct {
	PromptReceipt
	Artifact string `json:"artifact"`
}

// stop ends an attempt with a status (a core code or "completed") and a
// machine-readable reason.
type stop struct {
	status core.Code
	reason string
	err    error
}

func (s *stop) Error() string { return string(s.status) + ": " + s.reason }

func stopWith(code core.Code, reason string, err error) error {
	return &stop{status: code, reason: reason, err: err}
}

// run is the state of one attempt.
type run struct {
	*Runner
	refs   Refs
	verify string
	waived bool
	// waiverRecorded: the waiver event is already committed.
	waiverRecorded bool
	// resumed: the attempt continues an earlier one (its note and
	// records follow the start).
	resumed   bool
	msgs      []message
	steps     stepLimit
	loops     loopDetector
	tokens    TokenAccount
	budget    *admit.Budget
	probe     *turnProbe
	toolCalls int
	editSeq   int64
	touched   []string
	denied    bool
	summary   string
	found     []Loop
	pending   *PendingApproval
	// backendRestarts counts this attempt's restarts of a lost backend.
	backendRestarts int
	// verdict is the last verification verdict (nil: never verified);
	// verifyRuns counts failed runs and verifyOutput is the full output
	// of the last run, for the model's feedback.
	verdict      *Verdict
	verifyRuns   int
	verifyOutput string
	// mcp is the attempt's MCP servers (nil: none configured).
	mcp *mcpRun
	// reserved is the next turn request, reserved with the last tool
	// outcome (reserve_ahead.go); nil when none is held.
	reserved *reservation
}

// Run executes one task to a recorded outcome and returns its result.
func (r *Runner) Run(ctx context.Context, t taskStart) Result {
	refs, err := r.Journal.StartTask(ctx, t)
	if err != nil {
		// A SIGTERM that lands while the task's first transaction begins
		// fails it with the cancellation: the result is cancelled, not
		// storage_error blaming the store (the stability cohort's cancel
		// variant hit this once the consent audit event made the first
		// record come before the task).
		return notStarted(ctx, core.AsError(err), "")
	}
	faultPoint("after_task_created")
	markPhase("task_recorded")
	// StartTask recorded the waiver with the task.
	return r.attempt(ctx, refs, t.Request, contract{verify: t.Verify, waived: t.NoVerify, recorded: true}, nil)
}

// resume runs a new attempt of an interrupted task, carrying the budget
// consumption of earlier attempts forward.
// A waiver recorded by an earlier attempt carries forward unless a
// verification command is given now.
func (r *Runner) resume(ctx context.Context, j *storeJournal, task string, grants []core.Grant, c contract) Result {
	refs, prior, err := j.resumeTask(ctx, task, grants)
	if err != nil {
		res := notStarted(ctx, core.AsError(err), "")
		res.Task = task
		return res
	}
	if c.verify == "" && !c.waived {
		c = contract{verify: prior.Verify, waived: waivedBefore(ctx, j, task)}
	}
	prior.Stale = revalidate(ctx, r.Tools, prior.Versions).Stale
	return r.attempt(ctx, refs, prior.Request, c, &prior)
}

// contract is a task's verification contract: a command, or the user's
// explicit waiver.
type contract struct {
	verify string
	waived bool
	// recorded: the waiver is already durable (committed with the task).
	recorded bool
}

func (r *Runner) attempt(ctx context.Context, refs Refs, request string, c contract, prior *prior) Result {
	if r.OnStart != nil {
		r.OnStart(refs)
	}
	verify := c.verify
	a := &run{Runner: r, refs: refs, verify: verify, waived: c.waived && verify == "", waiverRecorded: c.recorded, resumed: prior != nil}
	if r.Inbox != nil {
		r.Inbox.attach(func(ctx context.Context, typ string, data any) error {
			_, err := r.Journal.Record(ctx, refs, typ, data)
			return err
		})
	}
	a.steps.MaxTurns = orDefault(r.Budgets.MaxTurns, defaultMaxTurns)
	var used admit.Usage
	if prior != nil {
		a.steps.resume(prior.Turns)
		a.tokens = prior.Usage
		used = admit.Usage{Turns: int64(prior.Turns), Tokens: prior.Tokens}
	}
	a.budget = admit.NewBudget(r.Budgets.limits(), used, nil)
	if r.OnBudget != nil {
		r.OnBudget(a.budget)
	}
	a.probe = newTurnProbe(r.Journal)
	defer a.probe.close()
	a.budget.Run()
	defer a.budget.Pause()
	defer a.stopMCP()
	ctx, root := a.traceAttempt(ctx, prior)
	err := a.tracedStart(ctx, request)
	if err == nil {
		err = a.declareContract(ctx)
	}
	a.observe("task_start", map[string]any{"request": request, "verify": verify})
	if err == nil && prior != nil {
		a.msgs = append(a.msgs, message{Role: roleUser, Content: resumeNote(*prior), Section: "resume"})
		a.record(ctx, core.EvAttemptResumed, map[string]any{"prior_turns": prior.Turns, "prior_tokens": prior.Tokens, "unknown_operations": len(prior.Unknown)})
		a.record(ctx, core.EvResumeRevalidation, Revalidation{Checked: len(prior.Versions), Stale: prior.Stale})
	}
	if err == nil {
		err = a.loop(ctx)
	}
	res := a.finish(ctx, err)
	a.endAttempt(ctx, root, res)
	a.observe("task_end", map[string]any{"status": res.Status, "reason": res.Reason, "turns": res.Turns, "verification": res.Verification.Verification})
	return res
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

func (a *run) start(ctx context.Context, request string) error {
	if err := a.startMCP(ctx); err != nil {
		return err
	}
	pre := a.startReads
	a.startReads = nil // read once: a later start reads the tree as it is then
	ic, err := buildInitialContext(ctx, contextInput{Request: request, Root: a.Root, Reads: a.Tools, Verify: a.verify, ToolSchemas: a.toolSchemas(), Prefetched: pre})
	if err != nil {
		return stopWith(core.CodeFailed, "context_unavailable", err)
	}
	markPhase("context_built")
	a.msgs = ic.Messages
	rec := ic.Receipt
	rec.Task, rec.Attempt = a.refs.Task, a.refs.Attempt
	// The content is session content: kept as an artifact, referenced by
	// the event, shown only on request (debug prompt --show-content). The
	// backend's identity, the workspace state (the one the context's git
	// status was read with), the receipt and — when the first step is a
	// plain turn request — that request's reservation commit together:
	// one fsync on the path to the first request, not five (three
	// records, the artifact link, the reservation).
	full, _ := json.Marshal(rec)
	first := a.reserveFirst()
	_, err = a.Journal.RecordStart(ctx, a.refs, full, "application/json", first, func(art string) []derivedEvent {
		var evs []derivedEvent
		if a.Backend != nil {
			evs = append(evs, derivedEvent{Type: core.EvToolBackendConnected, Data: a.Backend})
		}
		return append(evs, derivedEvent{Type: core.EvWorkspaceState, Data: ic.Workspace},
			derivedEvent{Type: core.EvPromptReceipt, Data: receiptEvent{PromptReceipt: rec.withoutContent(), Artifact: art}})
	})
	if err != nil {
		return stopWith(core.CodeStorageError, "journal_unavailable", err)
	}
	if first != nil && first.ID != "" {
		a.reserved = first
	}
	markPhase("start_recorded")
	return nil
}

// loop runs turns until the model stops calling tools or a stop occurs.
func (a *run) loop(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return stopped(ctx, err)
		}
		a.applyBudgets() // limits applied from the settings since the last turn
		switch a.steps.next() {
		case stepFinalize:
			return a.finalize(ctx)
		case stepStop:
			return stopWith(core.CodeBudgetExhausted, "max_turns", nil)
		}
		done, err := a.tracedTurn(ctx)
		if err != nil {
			return err
		}
		if done && !a.verifyClaim(ctx) {
			if a.verdict != nil && a.verdict.Reason == ReasonVerificationCancelled {
				// The run was cancelled while it verified: it stops
				// cancelled, not failed for want of a verdict.
				return stopped(ctx, ctx.Err())
			}
			return nil
		}
	}
}

// turn sends one request and executes the complete tool calls it returns.
func (a *run) turn(ctx context.Context) (bool, error) {
	a.deliverInterventions(ctx)
	a.syncMCP(ctx)
	if err := a.tracedCompaction(ctx); err != nil {
		return false, err
	}
	a.probe.start()
	resp, err := a.request(ctx, purposeTurn, a.msgs, a.toolSchemas())
	if err != nil {
		return false, err
	}
	a.probe.requested()
	defer a.probe.end(len(resp.ToolCalls))
	a.msgs = append(a.msgs, message{Role: roleAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls})
	if len(resp.ToolCalls) == 0 {
		a.summary = resp.Content
		return true, nil
	}
	for i, call := range resp.ToolCalls {
		if err := a.call(ctx, call, i == len(resp.ToolCalls)-1); err != nil {
			a.answerSkipped(resp.ToolCalls[i+1:])
			return false, err
		}
	}
	return false, nil
}

// answerSkipped keeps the history a valid protocol: every call gets a
// result, even the ones not run because the turn stopped.
func (a *run) answerSkipped(calls []toolCall) {
	for _, c := range calls {
		a.msgs = append(a.msgs, message{Role: roleTool, ToolCallID: c.ID, Content: "not run: the task stopped before this call"})
	}
}

// finalize sends the one text-only request at the turn limit.
func (a *run) finalize(ctx context.Context) error {
	msgs := append(append([]message{}, a.msgs...), message{Role: roleUser, Content: finalizationPrompt, Section: "finalize"})
	resp, err := a.request(ctx, purposeFinalize, msgs, nil)
	if err == nil {
		a.summary = resp.Content
		a.msgs = append(msgs, message{Role: roleAssistant, Content: resp.Content})
	}
	var s *stop
	if errors.As(err, &s) && s.status != core.CodeBudgetExhausted {
		return err
	}
	return stopWith(core.CodeBudgetExhausted, "max_turns", nil)
}

func (a *run) emit(v any) {
	if a.Emit != nil {
		a.Emit(v)
	}
}

func (a *run) observe(point string, data any) {
	if a.Observe != nil {
		a.Observe(point, data)
	}
}

// deliverInterventions adds queued user messages at a safe boundary: after
// every tool call of the previous turn has its result.
func (a *run) deliverInterventions(ctx context.Context) {
	if a.Inbox == nil {
		return
	}
	for _, in := range a.Inbox.take() {
		a.msgs = append(a.msgs, message{Role: roleUser, Content: in.Text, Section: "intervention"})
		a.record(ctx, core.EvIntervention, map[string]any{"id": in.ID, "state": "delivered", "bytes": len(in.Text)})
	}
}

// stopped classifies the end of a cancelled context.
func stopped(ctx context.Context, err error) error {
	return stopWith(core.CodeCancelled, "cancelled", err)
}

// budgetReasons name the result reason of each exhausted dimension.
var budgetReasons = map[string]string{
	admit.DimTokens: "max_tokens", admit.DimToolCalls: "max_tool_calls",
	admit.DimActive: "max_active_seconds", admit.DimTurns: "max_turns",
}

// exhausted records a budget exhaustion and stops with its reason.
func (a *run) exhausted(ctx context.Context, err error) error {
	fe := core.AsError(err)
	dim, _ := fe.Details["dimension"].(string)
	a.record(ctx, core.EvBudget, map[string]any{"budget": dim, "details": fe.Details, "usage": a.budget.Usage()})
	reason := budgetReasons[dim]
	if reason == "" {
		reason = "budget_exhausted"
	}
	return stopWith(core.CodeBudgetExhausted, reason, err)
}
