package otlphttp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The encoders are checked against the OpenTelemetry exporters: the same
// SDK records go through both, and the two bodies must decode (with the
// generated OTLP types) to equal messages. Only the tests link those.

// bodies records every request body a test server receives.
type bodies struct {
	mu  sync.Mutex
	got [][]byte
}

func (b *bodies) server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.got = append(b.got, data)
		b.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (b *bodies) only(t *testing.T) []byte {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.got) != 1 {
		t.Fatalf("the exporter sent %d requests, want 1", len(b.got))
	}
	return b.got[0]
}

func sameMessage(t *testing.T, theirs, ours []byte, newMsg func() proto.Message) {
	t.Helper()
	want, got := newMsg(), newMsg()
	if err := proto.Unmarshal(theirs, want); err != nil {
		t.Fatalf("the OpenTelemetry exporter's body does not decode: %v", err)
	}
	if err := proto.Unmarshal(ours, got); err != nil {
		t.Fatalf("our body does not decode: %v", err)
	}
	if !proto.Equal(want, got) {
		t.Fatalf("our encoding differs from the OpenTelemetry exporter's:\ntheirs: %s\nours:   %s",
			protojson.Format(want), protojson.Format(got))
	}
}

// everyValue is one attribute of each kind, nested ones included.
func everyValue() []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.Bool("t", true), attribute.Bool("f", false),
		attribute.Int64("i", -42), attribute.Int64("zero", 0),
		attribute.Float64("d", 2.5), attribute.Float64("dz", 0),
		attribute.String("s", "héllo"), attribute.String("empty", ""),
		attribute.BoolSlice("bs", []bool{true, false}),
		attribute.Int64Slice("is", []int64{1, -2, 1 << 40}),
		attribute.Float64Slice("ds", []float64{0.5, -1}),
		attribute.StringSlice("ss", []string{"a", ""}),
		attribute.ByteSlice("bytes", []byte{0, 1, 255}),
		attribute.Slice("mixed", attribute.IntValue(7), attribute.StringValue("x"), attribute.MapValue(attribute.Int("in", 1))),
		attribute.Map("map", attribute.String("k", "v"), attribute.Slice("deep", attribute.BoolValue(true))),
		{Key: "none", Value: attribute.Value{}},
	}
}

var testResource = resource.NewWithAttributes("https://opentelemetry.io/schemas/1.37.0",
	attribute.String("service.name", "fluzo-agent"), attribute.Int("pid", 1234))

func TestSpansEncodeAsTheOpenTelemetryExporterDoes(t *testing.T) {
	tid := trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	ts, _ := trace.ParseTraceState("vendor=value")
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{9, 9, 9, 9, 9, 9, 9, 9}, Remote: true, TraceFlags: trace.FlagsSampled})
	start := time.Unix(1_700_000_000, 123456789)
	scope := instrumentation.Scope{Name: "github.com/josecorral/fluzo", Version: "1.2.3", SchemaURL: "https://opentelemetry.io/schemas/1.37.0",
		Attributes: attribute.NewSet(attribute.String("scope.attr", "x"))}
	stubs := tracetest.SpanStubs{
		{
			Name: "chat sim", SpanKind: trace.SpanKindClient, Parent: parent, Resource: testResource, InstrumentationScope: scope,
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{1, 1, 1, 1, 1, 1, 1, 1}, TraceFlags: trace.FlagsSampled, TraceState: ts}),
			StartTime:   start, EndTime: start.Add(1500 * time.Millisecond),
			Attributes: everyValue(), DroppedAttributes: 3, DroppedEvents: 1, DroppedLinks: 2,
			Events: []sdktrace.Event{{Name: "retry", Time: start.Add(time.Millisecond), Attributes: []attribute.KeyValue{attribute.Int("attempt", 2)}, DroppedAttributeCount: 1}},
			Links:  []sdktrace.Link{{SpanContext: parent, Attributes: []attribute.KeyValue{attribute.String("why", "resume")}, DroppedAttributeCount: 4}},
			Status: sdktrace.Status{Code: codes.Error, Description: "rate limited"},
		},
		{
			Name: "execute_tool view", SpanKind: trace.SpanKindInternal, Resource: testResource, InstrumentationScope: scope,
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{2, 2, 2, 2, 2, 2, 2, 2}}),
			StartTime:   start, EndTime: start.Add(time.Millisecond), Status: sdktrace.Status{Code: codes.Ok},
		},
		{
			Name: "other scope", SpanKind: trace.SpanKindServer, Resource: testResource, InstrumentationScope: instrumentation.Scope{Name: "otelslog"},
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{3, 3, 3, 3, 3, 3, 3, 3}}),
			StartTime:   start, EndTime: start,
		},
	}
	spans := stubs.Snapshots()

	var theirs bodies
	srv := theirs.server(t)
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"),
		otlptracehttp.WithCompression(otlptracehttp.NoCompression), otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
	if err != nil {
		t.Fatal(err)
	}
	if err := exp.ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	sameMessage(t, theirs.only(t), EncodeSpans(spans), func() proto.Message { return &coltrace.ExportTraceServiceRequest{} })
}

func TestLogsEncodeAsTheOpenTelemetryExporterDoes(t *testing.T) {
	var captured []sdklog.Record
	var mu sync.Mutex
	capture := exporterFunc(func(_ context.Context, rs []sdklog.Record) error {
		mu.Lock()
		defer mu.Unlock()
		for i := range rs {
			captured = append(captured, rs[i].Clone())
		}
		return nil
	})
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(testResource), sdklog.WithProcessor(sdklog.NewSimpleProcessor(capture)))
	logger := lp.Logger("github.com/josecorral/fluzo", log.WithInstrumentationVersion("1.2.3"), log.WithInstrumentationAttributes(attribute.String("a", "b")))
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, SpanID: trace.SpanID{8, 8, 8, 8, 8, 8, 8, 8}, TraceFlags: trace.FlagsSampled}))
	var r log.Record
	r.SetTimestamp(time.Unix(1_700_000_000, 5))
	r.SetObservedTimestamp(time.Unix(1_700_000_001, 6))
	r.SetSeverity(log.SeverityWarn)
	r.SetSeverityText("WARN")
	r.SetEventName("fluzo.tool.denied")
	r.SetBody(attribute.MapValue(attribute.String("msg", "denied"), attribute.Int("n", 3)))
	r.AddAttributes(everyValue()...)
	logger.Emit(ctx, r)
	var bare log.Record
	bare.SetBody(attribute.StringValue("no trace, no times"))
	logger.Emit(context.Background(), bare)
	var empty log.Record
	logger.Emit(context.Background(), empty)
	if len(captured) != 3 {
		t.Fatalf("captured %d records", len(captured))
	}

	var theirs bodies
	srv := theirs.server(t)
	exp, err := otlploghttp.New(context.Background(), otlploghttp.WithEndpointURL(srv.URL+"/v1/logs"),
		otlploghttp.WithCompression(otlploghttp.NoCompression), otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}))
	if err != nil {
		t.Fatal(err)
	}
	if err := exp.Export(context.Background(), captured); err != nil {
		t.Fatal(err)
	}
	sameMessage(t, theirs.only(t), EncodeLogs(captured), func() proto.Message { return &collogs.ExportLogsServiceRequest{} })
}

type exporterFunc func(context.Context, []sdklog.Record) error

func (f exporterFunc) Export(ctx context.Context, rs []sdklog.Record) error { return f(ctx, rs) }
func (exporterFunc) ForceFlush(context.Context) error                       { return nil }
func (exporterFunc) Shutdown(context.Context) error                         { return nil }

func TestMetricsEncodeAsTheOpenTelemetryExporterDoes(t *testing.T) {
	start, now := time.Unix(1_700_000_000, 0), time.Unix(1_700_000_060, 7)
	attrs := attribute.NewSet(attribute.String("gen_ai.operation.name", "chat"), attribute.Bool("error", false))
	exInt := []metricdata.Exemplar[int64]{{FilteredAttributes: []attribute.KeyValue{attribute.String("f", "x")}, Time: now, Value: 9,
		SpanID: []byte{1, 2, 3, 4, 5, 6, 7, 8}, TraceID: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}}
	exFloat := []metricdata.Exemplar[float64]{{Time: now, Value: 0}}
	rm := &metricdata.ResourceMetrics{Resource: testResource, ScopeMetrics: []metricdata.ScopeMetrics{{
		Scope: instrumentation.Scope{Name: "github.com/josecorral/fluzo", Version: "1.2.3"},
		Metrics: []metricdata.Metrics{
			{Name: "fluzo.task.outcomes", Unit: "{task}", Description: "tasks by outcome", Data: metricdata.Sum[int64]{
				Temporality: metricdata.CumulativeTemporality, IsMonotonic: true,
				DataPoints: []metricdata.DataPoint[int64]{{Attributes: attrs, StartTime: start, Time: now, Value: 3, Exemplars: exInt}, {StartTime: start, Time: now, Value: 0}}}},
			{Name: "fluzo.cost", Unit: "{USD}", Data: metricdata.Sum[float64]{Temporality: metricdata.DeltaTemporality,
				DataPoints: []metricdata.DataPoint[float64]{{Attributes: attrs, StartTime: start, Time: now, Value: 0.125, Exemplars: exFloat}}}},
			{Name: "fluzo.queue.depth", Data: metricdata.Gauge[int64]{DataPoints: []metricdata.DataPoint[int64]{{Time: now, Value: -2}}}},
			{Name: "fluzo.ratio", Data: metricdata.Gauge[float64]{DataPoints: []metricdata.DataPoint[float64]{{Time: now, Value: 0.5}}}},
			{Name: "gen_ai.client.operation.duration", Unit: "s", Data: metricdata.Histogram[float64]{Temporality: metricdata.CumulativeTemporality,
				DataPoints: []metricdata.HistogramDataPoint[float64]{{Attributes: attrs, StartTime: start, Time: now, Count: 4, Sum: 1.75,
					Bounds: []float64{0.01, 0.1, 1, 10}, BucketCounts: []uint64{0, 1, 2, 1, 0},
					Min: metricdata.NewExtrema(0.05), Max: metricdata.NewExtrema(5.0), Exemplars: exFloat}}}},
			{Name: "gen_ai.client.token.usage", Unit: "{token}", Data: metricdata.Histogram[int64]{Temporality: metricdata.DeltaTemporality,
				DataPoints: []metricdata.HistogramDataPoint[int64]{{StartTime: start, Time: now, Count: 0, Sum: 0, Bounds: []float64{1}, BucketCounts: []uint64{0, 0}}}}},
			{Name: "fluzo.exp", Data: metricdata.ExponentialHistogram[float64]{Temporality: metricdata.CumulativeTemporality,
				DataPoints: []metricdata.ExponentialHistogramDataPoint[float64]{{Attributes: attrs, StartTime: start, Time: now, Count: 5, Sum: 12.5,
					Scale: -3, ZeroCount: 1, ZeroThreshold: 0.001, Min: metricdata.NewExtrema(-2.0), Max: metricdata.NewExtrema(9.0),
					PositiveBucket: metricdata.ExponentialBucket{Offset: -2, Counts: []uint64{1, 0, 300}},
					NegativeBucket: metricdata.ExponentialBucket{Offset: 4, Counts: []uint64{2}}, Exemplars: exFloat}}}},
			{Name: "fluzo.exp.int", Data: metricdata.ExponentialHistogram[int64]{Temporality: metricdata.DeltaTemporality,
				DataPoints: []metricdata.ExponentialHistogramDataPoint[int64]{{StartTime: start, Time: now, Count: 1, Sum: 4, Scale: 2,
					PositiveBucket: metricdata.ExponentialBucket{Counts: []uint64{1}}}}}},
			{Name: "fluzo.summary", Data: metricdata.Summary{DataPoints: []metricdata.SummaryDataPoint{{Attributes: attrs, StartTime: start, Time: now, Count: 2, Sum: 3,
				QuantileValues: []metricdata.QuantileValue{{Quantile: 0.5, Value: 1}, {Quantile: 0.99, Value: 2}}}}}},
		},
	}, {Scope: instrumentation.Scope{Name: "second"}, Metrics: []metricdata.Metrics{
		{Name: "fluzo.retries", Data: metricdata.Sum[int64]{Temporality: metricdata.CumulativeTemporality, IsMonotonic: true,
			DataPoints: []metricdata.DataPoint[int64]{{Time: now, Value: 1}}}},
	}}}}

	var theirs bodies
	srv := theirs.server(t)
	exp, err := otlpmetrichttp.New(context.Background(), otlpmetrichttp.WithEndpointURL(srv.URL+"/v1/metrics"),
		otlpmetrichttp.WithCompression(otlpmetrichttp.NoCompression), otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{Enabled: false}))
	if err != nil {
		t.Fatal(err)
	}
	if err := exp.Export(context.Background(), rm); err != nil {
		t.Fatal(err)
	}
	ours, err := EncodeMetrics(rm)
	if err != nil {
		t.Fatal(err)
	}
	sameMessage(t, theirs.only(t), ours, func() proto.Message { return &colmetrics.ExportMetricsServiceRequest{} })
}

// unknownAggregation is an aggregation neither encoder knows.
type unknownAggregation struct{ metricdata.Gauge[int64] }

func TestAnUnknownAggregationIsLeftOutAndNamed(t *testing.T) {
	rm := &metricdata.ResourceMetrics{Resource: testResource, ScopeMetrics: []metricdata.ScopeMetrics{{Metrics: []metricdata.Metrics{
		{Name: "odd", Data: unknownAggregation{}},
		{Name: "kept", Data: metricdata.Gauge[int64]{DataPoints: []metricdata.DataPoint[int64]{{Value: 1}}}},
	}}}}
	body, err := EncodeMetrics(rm)
	if err == nil || !strings.Contains(err.Error(), "odd") {
		t.Fatalf("err = %v, want the unknown metric named", err)
	}
	var req colmetrics.ExportMetricsServiceRequest
	if err := proto.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	ms := req.ResourceMetrics[0].ScopeMetrics[0].Metrics
	if len(ms) != 1 || ms[0].Name != "kept" {
		t.Fatalf("metrics sent = %v, want only the known one", ms)
	}
}
