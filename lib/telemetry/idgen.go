package telemetry

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"sync"

	"go.opentelemetry.io/otel/trace"
)

// wantTraceKey carries a trace ID chosen by the caller (the attempt's
// persisted trace ID) to the ID generator for the next root span.
type wantTraceKey struct{}

// idGenerator honours a requested trace ID for a root span, so the trace
// ID the journal already stored for an attempt is the span's trace ID.
// Otherwise it generates random IDs.
type idGenerator struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newIDGenerator() *idGenerator {
	var seed [32]byte
	crand.Read(seed[:])
	return &idGenerator{rng: rand.New(rand.NewChaCha8(seed))}
}

func (g *idGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var tid trace.TraceID
	if want, ok := ctx.Value(wantTraceKey{}).(trace.TraceID); ok && want.IsValid() {
		tid = want
	} else {
		for !tid.IsValid() {
			binary.NativeEndian.PutUint64(tid[:8], g.rng.Uint64())
			binary.NativeEndian.PutUint64(tid[8:], g.rng.Uint64())
		}
	}
	return tid, g.spanID()
}

func (g *idGenerator) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.spanID()
}

func (g *idGenerator) spanID() trace.SpanID {
	var sid trace.SpanID
	for !sid.IsValid() {
		binary.NativeEndian.PutUint64(sid[:], g.rng.Uint64())
	}
	return sid
}
