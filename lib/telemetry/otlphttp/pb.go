// Package otlphttp sends OpenTelemetry traces, metrics and logs to a
// collector over OTLP/HTTP with binary protobuf bodies, encoded here from
// the SDK's own records. The OTel exporters do the same through the
// generated OTLP message types, which link gRPC, the protobuf runtime and
// an HTTP gateway into every binary that exports: about 7 MB of
// fluzo-agent and 4.5 MiB of a run's resident memory, paid even when
// export is off. The OTLP schema is small and stable; its field numbers
// below are the opentelemetry-proto definitions (common, resource,
// trace, logs and metrics v1).
package otlphttp

import (
	"encoding/binary"
	"math"
)

// Protobuf wire types.
const (
	wireVarint = 0
	wireI64    = 1
	wireLen    = 2
	wireI32    = 5
)

// enc appends one protobuf message. Fields at their zero value are left
// out, as proto3 does; a nested message is written in place and its
// length put in front of it afterwards.
type enc struct{ b []byte }

func (e *enc) tag(field, wire int) { e.b = binary.AppendUvarint(e.b, uint64(field)<<3|uint64(wire)) }

func (e *enc) uvarint(field int, v uint64) {
	if v != 0 {
		e.tag(field, wireVarint)
		e.b = binary.AppendUvarint(e.b, v)
	}
}

func (e *enc) boolv(field int, v bool) {
	if v {
		e.uvarint(field, 1)
	}
}

// zigzag32 is an sint32 field.
func (e *enc) zigzag32(field int, v int32) { e.uvarint(field, uint64(uint32(v<<1)^uint32(v>>31))) }

func (e *enc) fixed64(field int, v uint64) {
	if v != 0 {
		e.tag(field, wireI64)
		e.b = binary.LittleEndian.AppendUint64(e.b, v)
	}
}

func (e *enc) fixed32(field int, v uint32) {
	if v != 0 {
		e.tag(field, wireI32)
		e.b = binary.LittleEndian.AppendUint32(e.b, v)
	}
}

func (e *enc) double(field int, v float64) { e.fixed64(field, math.Float64bits(v)) }

// doubleAlways writes v even when zero: an optional or oneof field, whose
// presence is meaningful.
func (e *enc) doubleAlways(field int, v float64) {
	e.tag(field, wireI64)
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

func (e *enc) bytes(field int, v []byte) {
	if len(v) != 0 {
		e.tag(field, wireLen)
		e.b = binary.AppendUvarint(e.b, uint64(len(v)))
		e.b = append(e.b, v...)
	}
}

func (e *enc) str(field int, v string) {
	if v != "" {
		e.tag(field, wireLen)
		e.b = binary.AppendUvarint(e.b, uint64(len(v)))
		e.b = append(e.b, v...)
	}
}

// packedFixed64 is a repeated fixed64 or double field.
func (e *enc) packedFixed64(field int, n int, at func(int) uint64) {
	if n == 0 {
		return
	}
	e.tag(field, wireLen)
	e.b = binary.AppendUvarint(e.b, uint64(8*n))
	for i := range n {
		e.b = binary.LittleEndian.AppendUint64(e.b, at(i))
	}
}

// packedUvarint is a repeated uint64 field.
func (e *enc) packedUvarint(field int, vs []uint64) {
	if len(vs) == 0 {
		return
	}
	size := 0
	for _, v := range vs {
		size += uvarintLen(v)
	}
	e.tag(field, wireLen)
	e.b = binary.AppendUvarint(e.b, uint64(size))
	for _, v := range vs {
		e.b = binary.AppendUvarint(e.b, v)
	}
}

// msg writes a nested message field, even an empty one (presence is
// meaningful for messages).
func (e *enc) msg(field int, body func(*enc)) {
	e.tag(field, wireLen)
	start := len(e.b)
	body(e)
	n := len(e.b) - start
	prefix := uvarintLen(uint64(n))
	e.b = append(e.b, make([]byte, prefix)...)
	copy(e.b[start+prefix:], e.b[start:start+n])
	binary.PutUvarint(e.b[start:], uint64(n))
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

func appendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

func appendFixed64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }
