package otlphttp

import (
	"go.opentelemetry.io/otel/attribute"
	sdklog "go.opentelemetry.io/otel/sdk/log"
)

// EncodeLogs is the body of an ExportLogsServiceRequest.
func EncodeLogs(records []sdklog.Record) []byte {
	var g groups[*sdklog.Record]
	for i := range records {
		r := &records[i]
		g.add(r.Resource(), r.InstrumentationScope(), r)
	}
	var e enc
	g.write(&e, (*enc).logRecord)
	return e.b
}

// logRecord writes a LogRecord (logs.proto).
func (e *enc) logRecord(r *sdklog.Record) {
	e.fixed64(1, unixNano(r.Timestamp()))
	e.uvarint(2, uint64(max(r.Severity(), 0)))
	e.str(3, r.SeverityText())
	e.msg(5, func(e *enc) { e.anyValue(r.Body()) })
	r.WalkAttributes(func(kv attribute.KeyValue) bool {
		e.keyValue(6, kv)
		return true
	})
	e.uvarint(7, clampUint32(r.DroppedAttributes()))
	e.fixed32(8, uint32(r.TraceFlags()))
	if t := r.TraceID(); t.IsValid() {
		e.bytes(9, t[:])
	}
	if s := r.SpanID(); s.IsValid() {
		e.bytes(10, s[:])
	}
	e.fixed64(11, unixNano(r.ObservedTimestamp()))
	e.str(12, r.EventName())
}
