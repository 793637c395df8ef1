package otlphttp

import (
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
)

// anyValue writes an AnyValue (common.proto: string 1, bool 2, int 3,
// double 4, array 5, kvlist 6, bytes 7). The oneof's member is written
// even at its zero value: false and 0 are values, not absence.
func (e *enc) anyValue(v attribute.Value) {
	switch v.Type() {
	case attribute.BOOL:
		e.tag(2, wireVarint)
		if v.AsBool() {
			e.b = append(e.b, 1)
		} else {
			e.b = append(e.b, 0)
		}
	case attribute.INT64:
		e.tag(3, wireVarint)
		e.b = appendUvarint(e.b, uint64(v.AsInt64()))
	case attribute.FLOAT64:
		e.doubleAlways(4, v.AsFloat64())
	case attribute.STRING:
		e.tag(1, wireLen)
		s := v.AsString()
		e.b = appendUvarint(e.b, uint64(len(s)))
		e.b = append(e.b, s...)
	case attribute.BYTESLICE:
		b := v.AsByteSlice()
		e.tag(7, wireLen)
		e.b = appendUvarint(e.b, uint64(len(b)))
		e.b = append(e.b, b...)
	case attribute.BOOLSLICE:
		array(e, v.AsBoolSlice(), attribute.BoolValue)
	case attribute.INT64SLICE:
		array(e, v.AsInt64Slice(), attribute.Int64Value)
	case attribute.FLOAT64SLICE:
		array(e, v.AsFloat64Slice(), attribute.Float64Value)
	case attribute.STRINGSLICE:
		array(e, v.AsStringSlice(), attribute.StringValue)
	case attribute.SLICE:
		array(e, v.AsSlice(), func(v attribute.Value) attribute.Value { return v })
	case attribute.MAP:
		e.msg(6, func(e *enc) { e.keyValues(1, v.AsMap()) })
	}
	// EMPTY: an AnyValue with no member set.
}

func array[T any](e *enc, vs []T, value func(T) attribute.Value) {
	e.msg(5, func(e *enc) {
		for _, v := range vs {
			e.msg(1, func(e *enc) { e.anyValue(value(v)) })
		}
	})
}

// keyValues writes each pair as a KeyValue (key 1, value 2) in field.
func (e *enc) keyValues(field int, kvs []attribute.KeyValue) {
	for _, kv := range kvs {
		e.keyValue(field, kv)
	}
}

func (e *enc) keyValue(field int, kv attribute.KeyValue) {
	e.msg(field, func(e *enc) {
		e.str(1, string(kv.Key))
		e.msg(2, func(e *enc) { e.anyValue(kv.Value) })
	})
}

// resource writes a Resource (attributes 1) in field; nil: absent.
func (e *enc) resource(field int, r *resource.Resource) {
	if r == nil {
		return
	}
	e.msg(field, func(e *enc) {
		for it := r.Iter(); it.Next(); {
			e.keyValue(1, it.Attribute())
		}
	})
}

// scope writes an InstrumentationScope (name 1, version 2, attributes 3)
// in field; the zero scope is absent.
func (e *enc) scope(field int, s instrumentation.Scope) {
	if s == (instrumentation.Scope{}) {
		return
	}
	e.msg(field, func(e *enc) {
		e.str(1, s.Name)
		e.str(2, s.Version)
		for it := s.Attributes.Iter(); it.Next(); {
			e.keyValue(3, it.Attribute())
		}
	})
}

// clampUint32 bounds a dropped count to the field's range.
func clampUint32(n int) uint64 {
	switch {
	case n < 0:
		return 0
	case n > math.MaxUint32:
		return math.MaxUint32
	}
	return uint64(n)
}
