package telemetry

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
)

var recordStrings = []string{"", "fluzo.tool", `q"b\s`, "<b>&</b>", "\n\t\x00\x1f", "\u2028", "bad\xff", "🚀 ünï"}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func randomAttrs(r *rand.Rand) map[string]any {
	if r.IntN(4) == 0 {
		return nil
	}
	m := map[string]any{}
	for i := r.IntN(6); i > 0; i-- {
		var v any
		switch r.IntN(9) {
		case 0:
			v = pick(r, recordStrings)
		case 1:
			v = r.IntN(2) == 0
		case 2:
			v = r.Int64() - r.Int64()
		case 3:
			v = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
		case 4:
			v = []string{pick(r, recordStrings), pick(r, recordStrings)}
		case 5:
			v = []int64{r.Int64(), -1}
		case 6:
			v = []float64{r.Float64(), 1e-9}
		case 7:
			v = []bool{true, false}
		case 8:
			v = map[string]any{"nested": pick(r, recordStrings)}
		}
		m[pick(r, recordStrings)+string(rune('a'+i))] = v
	}
	return m
}

func randomRecord(r *rand.Rand) *Record {
	ts := func() time.Time { return time.Unix(r.Int64N(1<<33), r.Int64N(1e9)).UTC() }
	rec := &Record{V: ArchiveVersion, Type: pick(r, []string{RecordSpan, RecordLog}), TS: ts(), Resource: randomAttrs(r),
		Scope: pick(r, recordStrings), Trace: pick(r, recordStrings), Span: pick(r, recordStrings), Attrs: randomAttrs(r),
		Parent: pick(r, recordStrings), Name: pick(r, recordStrings), Kind: pick(r, recordStrings),
		Status: pick(r, recordStrings), StatusMsg: pick(r, recordStrings)}
	if r.IntN(2) == 0 {
		s, e := ts(), ts()
		d := float64(r.Int64N(1e7)) / 1000
		rec.Start, rec.End, rec.DurationMS = &s, &e, &d
	}
	for i := r.IntN(3); i > 0; i-- {
		rec.Events = append(rec.Events, SpanEvent{Name: pick(r, recordStrings), TS: ts(), Attrs: randomAttrs(r)})
	}
	for i := r.IntN(2); i > 0; i-- {
		rec.Links = append(rec.Links, SpanLink{Trace: pick(r, recordStrings), Span: pick(r, recordStrings), Attrs: randomAttrs(r)})
	}
	if r.IntN(3) == 0 {
		rec.Log = &LogBody{Severity: pick(r, recordStrings), SeverityNumber: r.IntN(24), Observed: ts(), EventName: pick(r, recordStrings)}
		switch r.IntN(3) {
		case 0:
			rec.Log.Body = pick(r, recordStrings)
		case 1:
			rec.Log.Body = map[string]any{"k": []any{1, "x"}}
		}
	}
	if r.IntN(3) == 0 {
		rec.Dropped = &DroppedInfo{Attrs: r.IntN(2), Events: r.IntN(2), Links: r.IntN(2)}
	}
	return rec
}

func TestAppendRecordMatchesJSONMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 4000; i++ {
		rec := randomRecord(r)
		want, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendRecord(nil, rec)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("record %d (ok %v):\n got %s\nwant %s", i, ok, got, want)
		}
	}
}

// The resource is encoded once and reused: the line is still exactly
// json.Marshal's.
func TestCachedResourceWritesTheSameLine(t *testing.T) {
	res := resource.NewSchemaless(attribute.String("service.name", "fluzo-agent"), attribute.Int64("pid", 42), attribute.StringSlice("x", []string{"<a>", "b"}))
	var c resourceCache
	m, enc := c.getEncoded(res)
	if _, again := c.getEncoded(res); &again[0] != &enc[0] {
		t.Fatal("the resource was encoded again")
	}
	rec := &Record{V: ArchiveVersion, Type: RecordSpan, TS: time.Unix(1, 2).UTC(), Resource: m, resourceJSON: enc, Name: "turn"}
	line, err := marshalLine(rec)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(rec)
	if !bytes.Equal(line, append(want, '\n')) {
		t.Fatalf("got %s\nwant %s", line, want)
	}
}

// A value JSON cannot hold is still refused (and counted as dropped by the
// archivers), as json.Marshal refused it.
func TestRecordWithNaNIsRefused(t *testing.T) {
	rec := &Record{V: ArchiveVersion, Type: RecordSpan, TS: time.Unix(1, 0).UTC(), Attrs: map[string]any{"x": math.NaN()}}
	if line, err := marshalLine(rec); err == nil {
		t.Fatalf("wrote %s", line)
	}
}
