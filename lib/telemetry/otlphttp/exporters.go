package otlphttp

import (
	"context"
	"errors"

	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// TraceExporter is an sdktrace.SpanExporter sending each batch as one
// ExportTraceServiceRequest.
type TraceExporter struct{ S *Sender }

func (x TraceExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	return x.S.Send(ctx, EncodeSpans(spans))
}

func (TraceExporter) Shutdown(context.Context) error { return nil }

// LogExporter is an sdklog.Exporter sending each batch as one
// ExportLogsServiceRequest.
type LogExporter struct{ S *Sender }

func (x LogExporter) Export(ctx context.Context, records []sdklog.Record) error {
	if len(records) == 0 {
		return nil
	}
	return x.S.Send(ctx, EncodeLogs(records))
}

func (LogExporter) ForceFlush(context.Context) error { return nil }
func (LogExporter) Shutdown(context.Context) error   { return nil }

// MetricExporter is an sdkmetric.Exporter sending each collection as one
// ExportMetricsServiceRequest, with the SDK's default temporality
// (cumulative) and aggregations.
type MetricExporter struct{ S *Sender }

func (MetricExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return sdkmetric.DefaultTemporalitySelector(k)
}

func (MetricExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}

func (x MetricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	body, encErr := EncodeMetrics(rm)
	return errors.Join(x.S.Send(ctx, body), encErr)
}

func (MetricExporter) ForceFlush(context.Context) error { return nil }
func (MetricExporter) Shutdown(context.Context) error   { return nil }

var (
	_ sdktrace.SpanExporter = TraceExporter{}
	_ sdklog.Exporter       = LogExporter{}
	_ sdkmetric.Exporter    = MetricExporter{}
)
