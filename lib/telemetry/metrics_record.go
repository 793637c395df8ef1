package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Attribute keys used as metric labels. All are bounded (see Metrics).
const (
	LabelOutcome    = "fluzo.outcome"
	LabelTool       = "fluzo.tool.name"
	LabelDecision   = "fluzo.decision.kind"
	LabelSource     = "fluzo.decision.source"
	LabelRetryKind  = "fluzo.retry.kind"
	LabelPhase      = "fluzo.phase"
	LabelBudget     = "fluzo.budget.kind"
	LabelPool       = "fluzo.pool"
	LabelStatus     = "fluzo.status"
	LabelProvenance = "fluzo.cost.provenance"
	LabelCurrency   = "fluzo.cost.currency"
	LabelAgreement  = "fluzo.laya.agreement"
)

func (m *Metrics) attrs(kv ...string) metric.MeasurementOption {
	out := make([]attribute.KeyValue, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, m.limit.attr(kv[i], kv[i+1]))
	}
	return metric.WithAttributes(out...)
}

// TaskEnded records an attempt's outcome (completed, failed, cancelled,
// interrupted, budget_exhausted, …) and duration.
func (m *Metrics) TaskEnded(ctx context.Context, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	a := m.attrs(LabelOutcome, outcome)
	m.taskOutcomes.Add(ctx, 1, a)
	m.taskDuration.Record(ctx, d.Seconds(), a)
}

// ToolCall records a tool call's latency and outcome.
func (m *Metrics) ToolCall(ctx context.Context, tool, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.toolDuration.Record(ctx, d.Seconds(), m.attrs(LabelTool, tool, LabelOutcome, outcome))
}

// Decision records policy/approval/laya decision latency. kind is one of
// policy, approval, laya; outcome e.g. allow, deny, ask.
func (m *Metrics) Decision(ctx context.Context, kind, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.decisionDur.Record(ctx, d.Seconds(), m.attrs(LabelDecision, kind, LabelOutcome, outcome))
}

// Permission counts a permission outcome (allowed, denied, asked,
// approved, rejected, required) and where it came from (policy, grant,
// user, yolo).
func (m *Metrics) Permission(ctx context.Context, outcome, source string) {
	if m == nil {
		return
	}
	m.permissions.Add(ctx, 1, m.attrs(LabelOutcome, outcome, LabelSource, source))
}

// Cost adds a known cost. Unknown cost must not be recorded (it is not
// zero); provenance is CostConfiguredPrice or CostEstimatedUsage.
func (m *Metrics) Cost(ctx context.Context, amount float64, currency, provenance string) {
	if m == nil || amount < 0 {
		return
	}
	m.cost.Add(ctx, amount, m.attrs(LabelCurrency, currency, LabelProvenance, provenance))
}

// VerificationFailed counts a failed verification run.
func (m *Metrics) VerificationFailed(ctx context.Context) {
	if m == nil {
		return
	}
	m.verifyFailures.Add(ctx, 1)
}

// Retry counts a retry of kind provider, tool or compaction.
func (m *Metrics) Retry(ctx context.Context, kind string) {
	if m == nil {
		return
	}
	m.retries.Add(ctx, 1, m.attrs(LabelRetryKind, kind))
}

// Cancelled counts a cancellation in a phase (queue, model, tool, …).
func (m *Metrics) Cancelled(ctx context.Context, phase string) {
	if m == nil {
		return
	}
	m.cancellations.Add(ctx, 1, m.attrs(LabelPhase, phase))
}

// BudgetExhausted counts a budget running out (turns, time, tokens,
// tool_calls, cost).
func (m *Metrics) BudgetExhausted(ctx context.Context, budget string) {
	if m == nil {
		return
	}
	m.budgetExhaust.Add(ctx, 1, m.attrs(LabelBudget, budget))
}

// QueueEntered and QueueLeft track admission queue depth and wait.
func (m *Metrics) QueueEntered(ctx context.Context, pool string) {
	if m == nil {
		return
	}
	m.queueDepth.Add(ctx, 1, m.attrs(LabelPool, pool))
}

// QueueLeft records the wait and its outcome (admitted, timeout, cancelled).
func (m *Metrics) QueueLeft(ctx context.Context, pool, outcome string, wait time.Duration) {
	if m == nil {
		return
	}
	m.queueDepth.Add(ctx, -1, m.attrs(LabelPool, pool))
	m.queueWait.Record(ctx, wait.Seconds(), m.attrs(LabelPool, pool, LabelOutcome, outcome))
}

// LayaObservation records a shadow observation's status (ok, failed,
// timeout, cancelled, skipped) and latency.
func (m *Metrics) LayaObservation(ctx context.Context, status string, d time.Duration) {
	if m == nil {
		return
	}
	a := m.attrs(LabelStatus, status)
	m.layaObs.Add(ctx, 1, a)
	m.layaDuration.Record(ctx, d.Seconds(), a)
}

// genAI records the GenAI operation duration and reported token usage,
// once per logical operation. Missing usage is omitted, never zero.
func (m *Metrics) genAI(ctx context.Context, op, provider, model, errType string, d time.Duration, in, out *int64) {
	if m == nil {
		return
	}
	kv := []string{"gen_ai.operation.name", op, "gen_ai.provider.name", provider, "gen_ai.request.model", model}
	if errType != "" {
		m.opDuration.Record(ctx, d.Seconds(), m.attrs(append(kv, "error.type", errType)...))
	} else {
		m.opDuration.Record(ctx, d.Seconds(), m.attrs(kv...))
	}
	if in != nil {
		m.tokenUsage.Record(ctx, *in, m.attrs(append(kv, "gen_ai.token.type", "input")...))
	}
	if out != nil {
		m.tokenUsage.Record(ctx, *out, m.attrs(append(kv, "gen_ai.token.type", "output")...))
	}
}

func (m *Metrics) firstOutputAfter(ctx context.Context, provider, model string, d time.Duration) {
	if m == nil {
		return
	}
	m.firstOutput.Record(ctx, d.Seconds(), m.attrs("gen_ai.provider.name", provider, "gen_ai.request.model", model))
}

func (m *Metrics) firstChunkAfter(ctx context.Context, provider, model string, d time.Duration) {
	if m == nil {
		return
	}
	m.firstChunk.Record(ctx, d.Seconds(), m.attrs("gen_ai.provider.name", provider, "gen_ai.request.model", model))
}

// LayaAgreement compares a recommendation with the runtime's actual action:
// agree, disagree or no_action (see the LayaAgreement function); ""
// (not comparable) records nothing. It is unlabelled agreement, never
// accuracy.
func (m *Metrics) LayaAgreement(ctx context.Context, agreement string) {
	if m == nil || agreement == "" {
		return
	}
	m.layaAgreement.Add(ctx, 1, m.attrs(LabelAgreement, agreement))
}
