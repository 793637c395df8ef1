package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/trace"
)

// GenAISemconvRevision pins the GenAI semantic conventions revision the
// gen_ai.* names follow (MVP architecture §13.3). It is a resource
// attribute so that exported data says which mapping produced it.
const GenAISemconvRevision = "8ffdf568e1b4391a99adb081db16e8102e36918e"

// IDs returns the current trace and span IDs in ctx as lower-case hex,
// or "" when ctx carries no valid span. Stamp them on core.Event:
//
//	ev.Trace, ev.Span = telemetry.IDs(ctx)
func IDs(ctx context.Context) (traceID, spanID string) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", ""
	}
	return sc.TraceID().String(), sc.SpanID().String()
}

// linkTo builds a link to a previous attempt's span from stored hex IDs.
func linkTo(traceHex, spanHex string) (trace.Link, bool) {
	tid, err := trace.TraceIDFromHex(traceHex)
	if err != nil {
		return trace.Link{}, false
	}
	sid, err := trace.SpanIDFromHex(spanHex)
	if err != nil {
		return trace.Link{}, false
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true})
	return trace.Link{SpanContext: sc}, true
}
