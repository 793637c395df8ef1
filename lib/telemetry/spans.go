package telemetry

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Span names. GenAI spans are named "{operation} {model}" and tool spans
// "execute_tool {tool}" per the pinned GenAI conventions.
const (
	SpanAttempt         = "fluzo.attempt"
	SpanTurn            = "fluzo.turn"
	SpanContextBuild    = "fluzo.context.build"
	SpanAdmission       = "fluzo.admission"
	SpanProviderAttempt = "fluzo.provider.attempt"
	SpanPolicyCheck     = "fluzo.policy.check"
	SpanApproval        = "fluzo.approval"
	SpanVerification    = "fluzo.verification"
	SpanCompaction      = "fluzo.compaction"
	SpanLayaObservation = "fluzo.laya.observation"
)

// Outcomes passed to Span.End. Denied and cancelled are expected results,
// not internal failures: they leave the span status unset. Task statuses
// may be passed as they are: "completed" is ok; failed, timeout,
// provider_error, storage_error and unknown_outcome are errors.
const (
	OutcomeOK        = "ok"
	OutcomeFailed    = "failed"
	OutcomeTimeout   = "timeout"
	OutcomeCancelled = "cancelled"
	OutcomeDenied    = "denied"
	OutcomeSkipped   = "skipped"
	OutcomeUnknown   = "unknown"
)

// Span wraps an OTel span with Fluzo's outcome vocabulary. A nil *Span
// (from a nil Runtime) accepts every call and does nothing.
type Span struct {
	rt    *Runtime
	span  trace.Span
	start time.Time
	onEnd func(ctx context.Context, outcome string, err error, d time.Duration)
	ctx   context.Context
	ended atomic.Bool
}

func (rt *Runtime) start(ctx context.Context, name string, kind trace.SpanKind, attrs []attribute.KeyValue, extra ...trace.SpanStartOption) (context.Context, *Span) {
	if rt == nil || rt.stopped.Load() {
		return ctx, nil
	}
	opts := append([]trace.SpanStartOption{trace.WithSpanKind(kind), trace.WithAttributes(attrs...)}, extra...)
	ctx, sp := rt.tracer.Start(ctx, name, opts...)
	return ctx, &Span{rt: rt, span: sp, start: time.Now(), ctx: ctx}
}

// SetAttributes adds attributes. Never pass content, secrets or raw error
// text: use the Content helpers, which honour the capture policy.
func (s *Span) SetAttributes(kv ...attribute.KeyValue) {
	if s != nil {
		s.span.SetAttributes(kv...)
	}
}

// Event adds a timestamped event (e.g. "retry", "first_chunk").
func (s *Span) Event(name string, kv ...attribute.KeyValue) {
	if s != nil {
		s.span.AddEvent(name, trace.WithAttributes(kv...))
	}
}

// IDs returns the span's trace and span IDs as hex ("" for nil).
func (s *Span) IDs() (traceID, spanID string) {
	if s == nil {
		return "", ""
	}
	sc := s.span.SpanContext()
	return sc.TraceID().String(), sc.SpanID().String()
}

// Elapsed is the time since the span started.
func (s *Span) Elapsed() time.Duration {
	if s == nil {
		return 0
	}
	return time.Since(s.start)
}

// End closes the span with an outcome. err, when given, contributes only
// its typed code (error.type); its text is recorded only when content
// capture is on, since messages may carry paths or secrets.
func (s *Span) End(outcome string, err error) {
	// Ending twice would count metrics twice: only the first End counts.
	if s == nil || !s.ended.CompareAndSwap(false, true) {
		return
	}
	s.finish(outcome, err)
}

func (s *Span) finish(outcome string, err error) {
	if outcome == "" {
		outcome = OutcomeOK
		if err != nil {
			outcome = OutcomeFailed
		}
	}
	s.span.SetAttributes(attribute.String(LabelOutcome, outcome))
	errType := ""
	if err != nil {
		errType = string(core.CodeOf(err))
		s.span.SetAttributes(attribute.String("error.type", errType))
	}
	switch outcome {
	case OutcomeFailed, OutcomeTimeout, string(core.CodeProviderError), string(core.CodeStorageError), string(core.CodeUnknownOutcome):
		desc := errType
		if err != nil && s.rt.CaptureContent() {
			desc = err.Error()
		}
		s.span.SetStatus(codes.Error, desc)
	case OutcomeOK, "completed":
		s.span.SetStatus(codes.Ok, "")
	}
	if s.onEnd != nil {
		s.onEnd(s.ctx, outcome, err, time.Since(s.start))
	}
	s.span.End()
}

// AttemptInfo identifies a task attempt for its root span.
type AttemptInfo struct {
	Session, Task, Attempt string
	Number                 int
	// PreviousTrace and PreviousSpan, when a resumed attempt continues an
	// earlier one, become a span link (the new attempt is a new trace).
	PreviousTrace, PreviousSpan string
	// Retry marks an automatic retry of the task (a distinguishable attempt).
	Retry bool
	// TraceID, when it is a valid 32-hex-digit ID (e.g. the one the journal
	// stored for the attempt), becomes the new trace's ID.
	TraceID string
}

// StartAttempt starts the root span of a task attempt: always a new trace,
// linked to the previous attempt's trace when resuming. gen_ai.conversation.id
// carries the real session ID.
func (rt *Runtime) StartAttempt(ctx context.Context, a AttemptInfo) (context.Context, *Span) {
	attrs := []attribute.KeyValue{
		attribute.String("fluzo.session.id", a.Session), attribute.String("fluzo.task.id", a.Task),
		attribute.String("fluzo.attempt.id", a.Attempt), attribute.Int("fluzo.attempt.number", a.Number),
		attribute.Bool("fluzo.attempt.retry", a.Retry),
	}
	if a.Session != "" {
		attrs = append(attrs, attribute.String("gen_ai.conversation.id", a.Session))
	}
	opts := []trace.SpanStartOption{trace.WithNewRoot()}
	if l, ok := linkTo(a.PreviousTrace, a.PreviousSpan); ok {
		opts = append(opts, trace.WithLinks(l))
		attrs = append(attrs, attribute.String("fluzo.resumed_from.trace", a.PreviousTrace))
	}
	// Always set (zero when absent or invalid) so a request inherited from
	// an earlier attempt's context is never reused.
	tid, _ := trace.TraceIDFromHex(a.TraceID)
	ctx = context.WithValue(ctx, wantTraceKey{}, tid)
	ctx, s := rt.start(ctx, SpanAttempt, trace.SpanKindInternal, attrs, opts...)
	if s != nil {
		start := s.start
		s.onEnd = func(ctx context.Context, outcome string, _ error, _ time.Duration) {
			rt.metrics.TaskEnded(ctx, outcome, time.Since(start))
		}
	}
	return ctx, s
}

// StartTurn starts one agent turn (n counts from 1).
func (rt *Runtime) StartTurn(ctx context.Context, n int) (context.Context, *Span) {
	return rt.start(ctx, SpanTurn, trace.SpanKindInternal, []attribute.KeyValue{attribute.Int("fluzo.turn.number", n)})
}

// StartContextBuild starts context construction; set fluzo.context.*
// attributes (bytes, sections, truncated) on the returned span.
func (rt *Runtime) StartContextBuild(ctx context.Context) (context.Context, *Span) {
	return rt.start(ctx, SpanContextBuild, trace.SpanKindInternal, nil)
}

// StartAdmission starts waiting for model/pool admission; End records the
// queue wait and depth metrics with the outcome (ok = admitted).
func (rt *Runtime) StartAdmission(ctx context.Context, pool string) (context.Context, *Span) {
	ctx, s := rt.start(ctx, SpanAdmission, trace.SpanKindInternal, []attribute.KeyValue{attribute.String(LabelPool, pool)})
	if s != nil {
		rt.metrics.QueueEntered(ctx, pool)
		s.onEnd = func(ctx context.Context, outcome string, _ error, d time.Duration) {
			rt.metrics.QueueLeft(ctx, pool, outcome, d)
		}
	}
	return ctx, s
}

// StartProviderAttempt starts one physical HTTP attempt (n from 1) inside a
// GenAI span; retries of the same logical call are sibling attempts.
func (rt *Runtime) StartProviderAttempt(ctx context.Context, n int) (context.Context, *Span) {
	ctx, s := rt.start(ctx, SpanProviderAttempt, trace.SpanKindClient, []attribute.KeyValue{attribute.Int("fluzo.provider.attempt", n)})
	if s != nil && n > 1 {
		rt.metrics.Retry(ctx, "provider")
	}
	return ctx, s
}

// StartPolicyCheck starts a policy evaluation for a tool; End's outcome is
// the decision (allow, deny, ask) and feeds decision latency.
func (rt *Runtime) StartPolicyCheck(ctx context.Context, tool string) (context.Context, *Span) {
	return rt.decisionSpan(ctx, SpanPolicyCheck, "policy", tool)
}

// StartApproval starts waiting for a user approval.
func (rt *Runtime) StartApproval(ctx context.Context, tool string) (context.Context, *Span) {
	return rt.decisionSpan(ctx, SpanApproval, "approval", tool)
}

func (rt *Runtime) decisionSpan(ctx context.Context, name, kind, tool string) (context.Context, *Span) {
	ctx, s := rt.start(ctx, name, trace.SpanKindInternal, []attribute.KeyValue{attribute.String(LabelTool, tool)})
	if s != nil {
		s.onEnd = func(ctx context.Context, outcome string, _ error, d time.Duration) {
			rt.metrics.Decision(ctx, kind, outcome, d)
		}
	}
	return ctx, s
}

// StartToolCall starts a tool execution span "execute_tool {tool}".
func (rt *Runtime) StartToolCall(ctx context.Context, tool, operationID string) (context.Context, *Span) {
	ctx, s := rt.start(ctx, "execute_tool "+tool, trace.SpanKindInternal, []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", tool),
		attribute.String("fluzo.operation.id", operationID),
	})
	if s != nil {
		s.onEnd = func(ctx context.Context, outcome string, _ error, d time.Duration) {
			rt.metrics.ToolCall(ctx, tool, outcome, d)
		}
	}
	return ctx, s
}

// StartVerification starts the verification contract's run; a failed
// outcome counts a verification failure.
func (rt *Runtime) StartVerification(ctx context.Context) (context.Context, *Span) {
	ctx, s := rt.start(ctx, SpanVerification, trace.SpanKindInternal, nil)
	if s != nil {
		s.onEnd = func(ctx context.Context, outcome string, _ error, _ time.Duration) {
			if outcome == OutcomeFailed {
				rt.metrics.VerificationFailed(ctx)
			}
		}
	}
	return ctx, s
}

// StartCompaction starts a context compaction; its model call is a GenAI
// chat span with Purpose "context_compaction" started inside it.
func (rt *Runtime) StartCompaction(ctx context.Context) (context.Context, *Span) {
	return rt.start(ctx, SpanCompaction, trace.SpanKindInternal, nil)
}

// StartLayaObservation starts a shadow observation at a decision point. It
// is a CLIENT span of a non-generative decision service (no gen_ai.*).
func (rt *Runtime) StartLayaObservation(ctx context.Context, observationID, decisionPoint string) (context.Context, *Span) {
	ctx, s := rt.start(ctx, SpanLayaObservation, trace.SpanKindClient, []attribute.KeyValue{
		attribute.String("fluzo.observation.id", observationID), attribute.String("fluzo.decision.point", decisionPoint),
	})
	if s != nil {
		s.onEnd = func(ctx context.Context, outcome string, _ error, d time.Duration) {
			rt.metrics.LayaObservation(ctx, outcome, d)
		}
	}
	return ctx, s
}
