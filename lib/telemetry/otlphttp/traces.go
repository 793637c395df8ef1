package otlphttp

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Span flag bits above the W3C trace flags (trace.proto SpanFlags): the
// exporter always knows whether the parent was remote.
const (
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

// groups collects items by resource, then scope, in first-seen order:
// the Resource*/Scope* nesting every OTLP request has.
type groups[T any] struct {
	resources []*resourceGroup[T]
}

type resourceGroup[T any] struct {
	res    *resource.Resource
	key    attribute.Distinct
	scopes []*scopeGroup[T]
}

type scopeGroup[T any] struct {
	scope instrumentation.Scope
	items []T
}

func (g *groups[T]) add(res *resource.Resource, scope instrumentation.Scope, item T) {
	key := res.Equivalent()
	var rg *resourceGroup[T]
	for _, r := range g.resources {
		if r.key == key {
			rg = r
			break
		}
	}
	if rg == nil {
		rg = &resourceGroup[T]{res: res, key: key}
		g.resources = append(g.resources, rg)
	}
	for _, s := range rg.scopes {
		if s.scope == scope {
			s.items = append(s.items, item)
			return
		}
	}
	rg.scopes = append(rg.scopes, &scopeGroup[T]{scope: scope, items: []T{item}})
}

// write writes every resource group as field 1 of the request, each with
// its scope groups as field 2 and each scope's items as field 2 there
// (the same shape for spans, logs and metrics).
func (g *groups[T]) write(e *enc, item func(*enc, T)) {
	for _, rg := range g.resources {
		e.msg(1, func(e *enc) {
			e.resource(1, rg.res)
			for _, sg := range rg.scopes {
				e.msg(2, func(e *enc) {
					e.scope(1, sg.scope)
					for _, it := range sg.items {
						e.msg(2, func(e *enc) { item(e, it) })
					}
					e.str(3, sg.scope.SchemaURL)
				})
			}
			if rg.res != nil {
				e.str(3, rg.res.SchemaURL())
			}
		})
	}
}

// EncodeSpans is the body of an ExportTraceServiceRequest.
func EncodeSpans(spans []sdktrace.ReadOnlySpan) []byte {
	var g groups[sdktrace.ReadOnlySpan]
	for _, s := range spans {
		if s != nil {
			g.add(s.Resource(), s.InstrumentationScope(), s)
		}
	}
	var e enc
	g.write(&e, (*enc).span)
	return e.b
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() || t.UnixNano() < 0 {
		return 0
	}
	return uint64(t.UnixNano())
}

func spanFlags(tf trace.TraceFlags, sc trace.SpanContext) uint32 {
	f := uint32(tf) | flagHasIsRemote
	if sc.IsRemote() {
		f |= flagIsRemote
	}
	return f
}

// span writes a Span (trace.proto).
func (e *enc) span(s sdktrace.ReadOnlySpan) {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	e.bytes(1, tid[:])
	e.bytes(2, sid[:])
	e.str(3, sc.TraceState().String())
	if p := s.Parent().SpanID(); p.IsValid() {
		e.bytes(4, p[:])
	}
	e.str(5, s.Name())
	e.uvarint(6, uint64(s.SpanKind()))
	e.fixed64(7, unixNano(s.StartTime()))
	e.fixed64(8, unixNano(s.EndTime()))
	e.keyValues(9, s.Attributes())
	e.uvarint(10, clampUint32(s.DroppedAttributes()))
	for _, ev := range s.Events() {
		e.msg(11, func(e *enc) {
			e.fixed64(1, unixNano(ev.Time))
			e.str(2, ev.Name)
			e.keyValues(3, ev.Attributes)
			e.uvarint(4, clampUint32(ev.DroppedAttributeCount))
		})
	}
	e.uvarint(12, clampUint32(s.DroppedEvents()))
	for _, l := range s.Links() {
		e.msg(13, func(e *enc) {
			lt, ls := l.SpanContext.TraceID(), l.SpanContext.SpanID()
			e.bytes(1, lt[:])
			e.bytes(2, ls[:])
			e.str(3, l.SpanContext.TraceState().String())
			e.keyValues(4, l.Attributes)
			e.uvarint(5, clampUint32(l.DroppedAttributeCount))
			e.fixed32(6, spanFlags(l.SpanContext.TraceFlags(), l.SpanContext))
		})
	}
	e.uvarint(14, clampUint32(s.DroppedLinks()))
	st := s.Status()
	e.msg(15, func(e *enc) {
		e.str(2, st.Description)
		e.uvarint(3, statusCode(st.Code))
	})
	e.fixed32(16, spanFlags(sc.TraceFlags(), s.Parent()))
}

// statusCode maps the API's codes to Status.StatusCode (unset 0, ok 1,
// error 2); the API numbers them differently.
func statusCode(c codes.Code) uint64 {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	}
	return 0
}
