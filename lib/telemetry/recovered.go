package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// SpanAttemptRecovered marks, in a resumed attempt's trace, the earlier
// attempt that a crash left without an ended root span.
const SpanAttemptRecovered = "fluzo.attempt.recovered"

// OutcomeInterrupted is the outcome of an attempt its process never ended.
const OutcomeInterrupted = "interrupted"

// InterruptedAttempt identifies an attempt recovery found running: its
// process died, so its root span was never ended or exported.
type InterruptedAttempt struct {
	Session, Task, Attempt string
	// Trace is the attempt's trace ID; Span the last span ID its events
	// recorded ("" when none), used to correlate and link.
	Trace, Span string
}

func (a InterruptedAttempt) attrs() []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String("fluzo.session.id", a.Session), attribute.String("fluzo.task.id", a.Task),
		attribute.String("fluzo.attempt.id", a.Attempt), attribute.String("fluzo.interrupted.trace", a.Trace),
		attribute.String(LabelOutcome, OutcomeInterrupted),
	}
}

// AttemptInterrupted reports, when the store's restart recovery marks an
// attempt interrupted, a log record correlated with that attempt's own
// trace and one task outcome "interrupted" (no duration: its end is
// unknown). The attempt's spans are not invented: what its process
// exported before dying is all there is.
func (rt *Runtime) AttemptInterrupted(ctx context.Context, a InterruptedAttempt) {
	if rt == nil || rt.stopped.Load() {
		return
	}
	if l, ok := linkTo(a.Trace, a.Span); ok {
		ctx = trace.ContextWithRemoteSpanContext(ctx, l.SpanContext)
	}
	rt.Logger().WarnContext(ctx, "task attempt interrupted: its process ended without finishing it; recovery marked it interrupted",
		"session", a.Session, "task", a.Task, "attempt", a.Attempt, "trace", a.Trace, "outcome", OutcomeInterrupted)
	rt.metrics.taskOutcomes.Add(ctx, 1, rt.metrics.attrs(LabelOutcome, OutcomeInterrupted))
}

// RecordRecoveredAttempt adds a short fluzo.attempt.recovered span to the
// trace in ctx (a resumed attempt's) for the interrupted attempt it
// continues, linked to that attempt's trace, with outcome interrupted and
// a correlated log record, so the crash is visible in the new trace.
func (rt *Runtime) RecordRecoveredAttempt(ctx context.Context, a InterruptedAttempt) {
	if rt == nil || rt.stopped.Load() {
		return
	}
	var opts []trace.SpanStartOption
	if l, ok := linkTo(a.Trace, a.Span); ok {
		opts = append(opts, trace.WithLinks(l))
	}
	opts = append(opts, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(a.attrs()...))
	ctx, sp := rt.tracer.Start(ctx, SpanAttemptRecovered, opts...)
	sp.SetStatus(codes.Error, OutcomeInterrupted)
	rt.Logger().WarnContext(ctx, "resuming after an interrupted attempt",
		"task", a.Task, "interrupted_attempt", a.Attempt, "interrupted_trace", a.Trace, "outcome", OutcomeInterrupted)
	sp.End()
}
