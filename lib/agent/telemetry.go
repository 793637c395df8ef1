package agent

import (
	"context"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/telemetry"
	"go.opentelemetry.io/otel/trace"
)

// Telemetry is the agent's handle on the process's telemetry runtime
// (lib/telemetry): the attempt, turn, model, policy, tool, verification,
// compaction and Laya spans, their metrics and correlated logs. A nil
// *Telemetry, or one with a nil RT, instruments nothing, so runners built
// without it (tests, tools) behave exactly as before.
type Telemetry struct {
	RT *telemetry.Runtime
	// Provider is gen_ai.provider.name and Pool the admission pool of the
	// agent's model, both from configuration (bounded label values).
	Provider, Pool string
	// Price is the agent model's configured price; nil (no price) leaves
	// cost unknown, never zero.
	Price *telemetry.Price

	// roots maps attempt IDs to their root span, so that shadow
	// observations answered after the loop moved on still join the trace.
	roots sync.Map
}

// runtime returns the telemetry runtime, nil when telemetry is off.
func (t *Telemetry) runtime() *telemetry.Runtime {
	if t == nil {
		return nil
	}
	return t.RT
}

// logInfo writes a log record correlated with ctx's span. Callers pass
// identifiers and enums only: never content or raw error text.
func (t *Telemetry) logInfo(ctx context.Context, msg string, kv ...any) {
	if rt := t.runtime(); rt != nil {
		rt.Logger().InfoContext(ctx, msg, kv...)
	}
}

// startTelemetry starts the telemetry runtime from the workspace's
// effective configuration ([telemetry]: the local archive in
// .fluzodrive/telemetry/, opt-in OTLP export) when mode is not empty.
// Owner.Close shuts it down with a bounded flush before the store closes.
// Start fails only for invalid export configuration or an unusable archive
// directory; a collector outage never stops the owner.
func (w *Owner) startTelemetry(ctx context.Context, ws store.Workspace, mode string) error {
	if mode == "" {
		return nil
	}
	o := telemetry.OptionsFromConfig(w.Config, ws.Drive(), "fluzo-agent")
	o.Mode = mode
	o.ConfigFingerprint = w.Config.Fingerprint()
	// Plain HTTP to a collector that is not loopback only with the
	// exception the user accepted in consent for exactly that endpoint.
	o.Export.TrustedInsecure = o.Export.Enabled && w.consent.Allows(o.Export.Endpoint)
	rt, err := telemetry.Start(ctx, o)
	if err != nil {
		return err
	}
	t := &Telemetry{RT: rt}
	model := w.Config.String("agent.model")
	if m, ok := w.Config.Model(model); ok {
		t.Provider, t.Pool = m.Provider, m.Pool
	}
	if p, ok := w.Config.Pricing(model); ok {
		t.Price = &telemetry.Price{InputPerMTok: p.InputPerMTok, OutputPerMTok: p.OutputPerMTok}
	}
	w.Telemetry = t
	w.reportRecovered(ctx, rt)
	w.closers = append(w.closers, func() error {
		// Diagnostic only: a flush that cannot finish in time is counted
		// in the archive's health, never an owner error.
		rt.Shutdown(context.Background())
		return nil
	})
	return nil
}

// traceAttempt starts the attempt's root span, adopting the trace ID the
// journal already stored for it (refs.Trace), so that the store's events,
// the result record, the logs and the spans share one trace. A resumed
// attempt is a new trace linked to the previous attempt's.
func (a *run) traceAttempt(ctx context.Context, prior *prior) (context.Context, *telemetry.Span) {
	rt := a.Telemetry.runtime()
	if rt == nil {
		return ctx, nil
	}
	info := telemetry.AttemptInfo{Session: a.refs.Session, Task: a.refs.Task, Attempt: a.refs.Attempt, Number: 1, TraceID: a.refs.Trace}
	var prev core.Attempt
	if prior != nil {
		if j, ok := a.Journal.(*storeJournal); ok {
			info.Number, prev, info.PreviousSpan = previousAttempt(ctx, j.S, a.refs)
			info.PreviousTrace = prev.TraceID
		}
	}
	ctx, root := rt.StartAttempt(ctx, info)
	a.Telemetry.roots.Store(a.refs.Attempt, trace.SpanContextFromContext(ctx))
	a.Telemetry.logInfo(ctx, "task attempt started", "session", a.refs.Session, "task", a.refs.Task, "attempt", a.refs.Attempt, "number", info.Number)
	if prev.State == core.AttemptInterrupted {
		// Its process died: its root span never ended, so the new trace
		// says so (recovery is the only path to this state).
		rt.RecordRecoveredAttempt(ctx, telemetry.InterruptedAttempt{Session: a.refs.Session, Task: a.refs.Task, Attempt: prev.ID, Trace: prev.TraceID, Span: info.PreviousSpan})
	}
	return ctx, root
}

// endAttempt closes the root span with the attempt's status and records
// the cancellation and budget-exhaustion metrics the status implies.
func (a *run) endAttempt(ctx context.Context, root *telemetry.Span, res Result) {
	rt := a.Telemetry.runtime()
	if rt == nil {
		return
	}
	m := rt.Metrics()
	switch core.Code(res.Status) {
	case core.CodeCancelled:
		m.Cancelled(ctx, "task")
	case core.CodeBudgetExhausted:
		m.BudgetExhausted(ctx, budgetOf(res.Reason))
	}
	a.Telemetry.logInfo(ctx, "task attempt ended", "task", a.refs.Task, "attempt", a.refs.Attempt, "status", res.Status, "reason", res.Reason,
		"turns", res.Turns, "tool_calls", res.ToolCalls, "verification", res.Verification.Verification)
	var err error
	if res.Error != nil {
		err = res.Error
	}
	root.End(res.Status, err)
}

// budgetOf names the budget a stop reason exhausted (a bounded label).
func budgetOf(reason string) string {
	switch reason {
	case "max_turns":
		return "turns"
	case "max_tokens", reasonCompactionBudget:
		return "tokens"
	case "max_tool_calls":
		return "tool_calls"
	case "max_active_seconds":
		return "active_time"
	}
	return "other"
}

// previousAttempt numbers a resumed attempt and finds the span to link to:
// the last event of the previous attempt that carries a span ID (its root
// span when it finished; a child span when it was interrupted).
func previousAttempt(ctx context.Context, s *store.Store, refs Refs) (number int, prev core.Attempt, prevSpan string) {
	cur, err := s.GetAttempt(ctx, refs.Attempt)
	if err != nil {
		return 1, core.Attempt{}, ""
	}
	number = cur.Number
	if cur.PreviousID == "" {
		return number, core.Attempt{}, ""
	}
	if prev, err = s.GetAttempt(ctx, cur.PreviousID); err != nil {
		return number, core.Attempt{}, ""
	}
	return number, prev, lastSpanOf(ctx, s, refs.Task, prev.ID)
}

// lastSpanOf is the span ID of the attempt's last event that has one.
func lastSpanOf(ctx context.Context, s *store.Store, task, attempt string) (span string) {
	s.EachEvent(ctx, store.EventQuery{Task: task}, func(ev core.Event) error {
		if ev.Attempt == attempt && ev.Span != "" {
			span = ev.Span
		}
		return nil
	})
	return span
}

// reportRecovered tells telemetry about the attempts the store's restart
// recovery marked interrupted (their process died with their root span
// open): a log record in each one's trace and an interrupted outcome.
func (w *Owner) reportRecovered(ctx context.Context, rt *telemetry.Runtime) {
	for _, id := range w.Recovery.Attempts {
		at, err := w.Store.GetAttempt(ctx, id)
		if err != nil {
			continue // diagnostic only; the store already recorded the recovery
		}
		task, err := w.Store.GetTask(ctx, at.TaskID)
		if err != nil {
			continue
		}
		rt.AttemptInterrupted(ctx, telemetry.InterruptedAttempt{Session: task.SessionID, Task: at.TaskID, Attempt: id, Trace: at.TraceID, Span: lastSpanOf(ctx, w.Store, at.TaskID, id)})
	}
}
