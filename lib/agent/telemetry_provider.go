package agent

import (
	"context"
	"time"

	"github.com/josecorral/fluzo/lib/provider"
	"github.com/josecorral/fluzo/lib/provider/laya"
	"github.com/josecorral/fluzo/lib/telemetry"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// runtimeKey carries the telemetry runtime from the loop's GenAI span to
// the provider adapter, which only sees a context.
type runtimeKey struct{}

func withRuntime(ctx context.Context, rt *telemetry.Runtime) context.Context {
	if rt == nil {
		return ctx
	}
	return context.WithValue(ctx, runtimeKey{}, rt)
}

func runtimeFrom(ctx context.Context) *telemetry.Runtime {
	rt, _ := ctx.Value(runtimeKey{}).(*telemetry.Runtime)
	return rt
}

// traceProviderAttempts adds one fluzo.provider.attempt child span per
// physical HTTP attempt of the logical call whose GenAI span is in ctx,
// from the attempts lib/provider recorded (on the response, or on the
// error with provider.AttemptsOf). They are reconstructed after the call
// from each attempt's duration and backoff, so the spans carry the real
// timing without the provider client knowing about telemetry. Retries
// (attempt 2 and later) are counted in fluzo.retries.
func traceProviderAttempts(ctx context.Context, resp *provider.Response, err error) {
	rt := runtimeFrom(ctx)
	if rt == nil {
		return
	}
	var attempts []provider.Attempt
	if resp != nil {
		attempts = resp.Attempts
	} else {
		attempts = provider.AttemptsOf(err)
	}
	end := time.Now()
	starts := make([]time.Time, len(attempts))
	ends := make([]time.Time, len(attempts))
	for i := len(attempts) - 1; i >= 0; i-- {
		ends[i] = end
		starts[i] = end.Add(-attempts[i].Duration)
		end = starts[i].Add(-attempts[i].Backoff)
	}
	for i, at := range attempts {
		attrs := []attribute.KeyValue{attribute.Int("fluzo.provider.attempt", at.N), attribute.Bool("fluzo.provider.output", at.Output)}
		if at.Status != 0 {
			attrs = append(attrs, attribute.Int("http.response.status_code", at.Status))
		}
		if at.Backoff > 0 {
			attrs = append(attrs, attribute.Float64("fluzo.provider.backoff_seconds", at.Backoff.Seconds()))
		}
		outcome := telemetry.OutcomeOK
		if at.Class != "" {
			outcome = telemetry.OutcomeFailed
			attrs = append(attrs, attribute.String("error.type", string(at.Class)))
		}
		attrs = append(attrs, attribute.String(telemetry.LabelOutcome, outcome))
		_, sp := rt.Tracer().Start(ctx, telemetry.SpanProviderAttempt, trace.WithSpanKind(trace.SpanKindClient),
			trace.WithTimestamp(starts[i]), trace.WithAttributes(attrs...))
		if at.Class != "" {
			sp.SetStatus(codes.Error, string(at.Class))
		} else {
			sp.SetStatus(codes.Ok, "")
		}
		sp.End(trace.WithTimestamp(ends[i]))
		if at.N > 1 {
			rt.Metrics().Retry(ctx, "provider")
		}
	}
}

// traceObservation records a Laya shadow observation as a
// fluzo.laya.observation client span in its attempt's trace, timed by the
// observation's own latency (it is answered in the background, possibly
// after the attempt's root span ended), and counts it by status. It
// returns the span's ID for the observation's event ("" when off).
func (w *Owner) traceObservation(refs Refs, ob laya.Observation) string {
	t := w.Telemetry
	rt := t.runtime()
	if rt == nil {
		return ""
	}
	ctx := context.Background()
	if sc, ok := t.roots.Load(refs.Attempt); ok {
		ctx = trace.ContextWithSpanContext(ctx, sc.(trace.SpanContext))
	}
	status := telemetry.OutcomeOK
	switch {
	case ob.Skipped != "":
		status = telemetry.OutcomeSkipped
	case ob.Failure == "timeout":
		status = telemetry.OutcomeTimeout
	case ob.Failure != "":
		status = telemetry.OutcomeFailed
	}
	latency := time.Duration(ob.LatencyMS) * time.Millisecond
	end := time.Now()
	_, sp := rt.Tracer().Start(ctx, telemetry.SpanLayaObservation, trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(end.Add(-latency)),
		trace.WithAttributes(attribute.String("fluzo.decision.point", ob.Point), attribute.String("fluzo.observation.fingerprint", ob.Fingerprint),
			attribute.String("fluzo.observation.action_taken", ob.ActionTaken), attribute.String(telemetry.LabelOutcome, status)))
	if ob.Skipped != "" {
		sp.SetAttributes(attribute.String("fluzo.observation.skipped", ob.Skipped))
	}
	if status == telemetry.OutcomeFailed || status == telemetry.OutcomeTimeout {
		sp.SetStatus(codes.Error, status)
	}
	sp.End(trace.WithTimestamp(end))
	rt.Metrics().LayaObservation(ctx, status, latency)
	if ob.Skipped == "" {
		rt.Metrics().Decision(ctx, "laya", status, latency)
	}
	rt.Metrics().LayaAgreement(ctx, telemetry.LayaAgreement(telemetry.RecommendedAction(ob.Answers, laya.QuestionNextAction), ob.ActionTaken))
	return sp.SpanContext().SpanID().String()
}
