package telemetry

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// resourceCache converts (and encodes) a resource once; every record
// repeats it.
type resourceCache struct {
	mu  sync.Mutex
	res *resource.Resource
	m   map[string]any
	enc []byte
}

func (c *resourceCache) get(r *resource.Resource) map[string]any {
	m, _ := c.getEncoded(r)
	return m
}

// getEncoded also returns the map's JSON, nil when it cannot be written
// (the record's encoding then reports that).
func (c *resourceCache) getEncoded(r *resource.Resource) (map[string]any, []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r != c.res || c.m == nil && c.enc == nil {
		c.res, c.m = r, resourceMap(r)
		c.enc = nil
		if enc, ok := core.AppendJSONValue(nil, c.m, true); ok {
			c.enc = enc
		}
	}
	return c.m, c.enc
}

// spanArchiver is an sdktrace.SpanExporter that serializes each span on
// the caller's goroutine and hands the line to the archive queue.
type spanArchiver struct {
	sink *archiveSink
	res  resourceCache
}

func (a *spanArchiver) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	for _, s := range spans {
		line, err := marshalLine(a.spanRecord(s))
		if err != nil {
			a.sink.health.drop(DropOversize, 1)
			continue
		}
		a.sink.put(line)
	}
	return nil
}

func (a *spanArchiver) spanRecord(s sdktrace.ReadOnlySpan) *Record {
	sc := s.SpanContext()
	start, end := s.StartTime().UTC(), s.EndTime().UTC()
	dur := float64(end.Sub(start).Microseconds()) / 1000
	res, resJSON := a.res.getEncoded(s.Resource())
	r := &Record{
		V: ArchiveVersion, Type: RecordSpan, TS: end, Resource: res, resourceJSON: resJSON,
		Scope: scopeName(s.InstrumentationScope()), Trace: sc.TraceID().String(), Span: sc.SpanID().String(),
		Name: s.Name(), Kind: strings.ToLower(s.SpanKind().String()), Start: &start, End: &end, DurationMS: &dur,
		Status: statusName(s.Status().Code), StatusMsg: s.Status().Description, Attrs: attrMap(s.Attributes()),
	}
	if p := s.Parent(); p.IsValid() {
		r.Parent = p.SpanID().String()
	}
	for _, e := range s.Events() {
		r.Events = append(r.Events, SpanEvent{Name: e.Name, TS: e.Time.UTC(), Attrs: attrMap(e.Attributes)})
	}
	for _, l := range s.Links() {
		r.Links = append(r.Links, SpanLink{Trace: l.SpanContext.TraceID().String(), Span: l.SpanContext.SpanID().String(), Attrs: attrMap(l.Attributes)})
	}
	if d := (DroppedInfo{Attrs: s.DroppedAttributes(), Events: s.DroppedEvents(), Links: s.DroppedLinks()}); d != (DroppedInfo{}) {
		r.Dropped = &d
	}
	return r
}

func statusName(c codes.Code) string {
	switch c {
	case codes.Ok:
		return "ok"
	case codes.Error:
		return "error"
	}
	return "unset"
}

func (a *spanArchiver) Shutdown(ctx context.Context) error { return a.sink.shutdown(ctx) }

// metricArchiver is an sdkmetric.Exporter writing one record per metric.
type metricArchiver struct {
	sink *archiveSink
	res  resourceCache
}

func (a *metricArchiver) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return sdkmetric.DefaultTemporalitySelector(k)
}

func (a *metricArchiver) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}

func (a *metricArchiver) Export(_ context.Context, rm *metricdata.ResourceMetrics) error {
	now := time.Now().UTC()
	res := a.res.get(rm.Resource)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			body := metricBody(m)
			if body == nil || len(body.Points) == 0 {
				continue
			}
			line, err := marshalLine(&Record{V: ArchiveVersion, Type: RecordMetric, TS: now, Resource: res, Scope: sm.Scope.Name, Metric: body})
			if err != nil {
				a.sink.health.drop(DropOversize, 1)
				continue
			}
			a.sink.put(line)
		}
	}
	return nil
}

func (a *metricArchiver) ForceFlush(ctx context.Context) error { return a.sink.flush(ctx) }
func (a *metricArchiver) Shutdown(ctx context.Context) error   { return a.sink.shutdown(ctx) }

func metricBody(m metricdata.Metrics) *MetricBody {
	b := &MetricBody{Name: m.Name, Unit: m.Unit, Description: m.Description}
	switch d := m.Data.(type) {
	case metricdata.Sum[int64]:
		b.Instrument, b.Temporality, b.Monotonic = "sum", d.Temporality.String(), d.IsMonotonic
		b.Points = sumPoints(d.DataPoints)
	case metricdata.Sum[float64]:
		b.Instrument, b.Temporality, b.Monotonic = "sum", d.Temporality.String(), d.IsMonotonic
		b.Points = sumPoints(d.DataPoints)
	case metricdata.Gauge[int64]:
		b.Instrument, b.Points = "gauge", sumPoints(d.DataPoints)
	case metricdata.Gauge[float64]:
		b.Instrument, b.Points = "gauge", sumPoints(d.DataPoints)
	case metricdata.Histogram[int64]:
		b.Instrument, b.Temporality = "histogram", d.Temporality.String()
		b.Points = histPoints(d.DataPoints)
	case metricdata.Histogram[float64]:
		b.Instrument, b.Temporality = "histogram", d.Temporality.String()
		b.Points = histPoints(d.DataPoints)
	default:
		return nil
	}
	return b
}

func sumPoints[N int64 | float64](dps []metricdata.DataPoint[N]) []MetricPoint {
	out := make([]MetricPoint, 0, len(dps))
	for _, dp := range dps {
		v := float64(dp.Value)
		out = append(out, MetricPoint{Attrs: attrMap(dp.Attributes.ToSlice()), Start: dp.StartTime.UTC(), End: dp.Time.UTC(), Value: &v})
	}
	return out
}

func histPoints[N int64 | float64](dps []metricdata.HistogramDataPoint[N]) []MetricPoint {
	out := make([]MetricPoint, 0, len(dps))
	for _, dp := range dps {
		count, sum := dp.Count, float64(dp.Sum)
		p := MetricPoint{Attrs: attrMap(dp.Attributes.ToSlice()), Start: dp.StartTime.UTC(), End: dp.Time.UTC(),
			Count: &count, Sum: &sum, Bounds: dp.Bounds, BucketCounts: dp.BucketCounts}
		if v, ok := dp.Min.Value(); ok {
			f := float64(v)
			p.Min = &f
		}
		if v, ok := dp.Max.Value(); ok {
			f := float64(v)
			p.Max = &f
		}
		out = append(out, p)
	}
	return out
}

// logArchiver is an sdklog.Exporter; it serializes records immediately,
// so it never retains the SDK's records past Export.
type logArchiver struct {
	sink *archiveSink
	res  resourceCache
}

func (a *logArchiver) Export(_ context.Context, records []sdklog.Record) error {
	for i := range records {
		line, err := marshalLine(a.logRecord(&records[i]))
		if err != nil {
			a.sink.health.drop(DropOversize, 1)
			continue
		}
		a.sink.put(line)
	}
	return nil
}

func (a *logArchiver) logRecord(r *sdklog.Record) *Record {
	res, resJSON := a.res.getEncoded(r.Resource())
	rec := &Record{
		V: ArchiveVersion, Type: RecordLog, TS: r.Timestamp().UTC(), Resource: res, resourceJSON: resJSON,
		Scope: r.InstrumentationScope().Name,
		Log: &LogBody{Severity: r.SeverityText(), SeverityNumber: int(r.Severity()), Body: r.Body().AsInterface(),
			Observed: r.ObservedTimestamp().UTC(), EventName: r.EventName()},
	}
	if rec.TS.IsZero() {
		rec.TS = rec.Log.Observed
	}
	if t := r.TraceID(); t.IsValid() {
		rec.Trace = t.String()
	}
	if s := r.SpanID(); s.IsValid() {
		rec.Span = s.String()
	}
	if n := r.AttributesLen(); n > 0 {
		rec.Attrs = make(map[string]any, n)
		r.WalkAttributes(func(kv attribute.KeyValue) bool {
			rec.Attrs[string(kv.Key)] = kv.Value.AsInterface()
			return true
		})
	}
	return rec
}

func (a *logArchiver) ForceFlush(ctx context.Context) error { return a.sink.flush(ctx) }
func (a *logArchiver) Shutdown(ctx context.Context) error   { return a.sink.shutdown(ctx) }
