package otlptest

import (
	"encoding/hex"
	"regexp"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// AttrOf finds key among kvs.
func AttrOf(kvs []*commonpb.KeyValue, key string) (*commonpb.AnyValue, bool) {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// HexID renders a trace or span ID as lower-case hex ("" when empty).
func HexID(b []byte) string { return hex.EncodeToString(b) }

// SpansOfTrace keeps the spans whose trace ID is traceHex.
func SpansOfTrace(spans []*tracepb.Span, traceHex string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, s := range spans {
		if HexID(s.TraceId) == traceHex {
			out = append(out, s)
		}
	}
	return out
}

// MetricAttrs calls fn for every attribute of every data point of m.
func MetricAttrs(m *metricspb.Metric, fn func(*commonpb.KeyValue)) {
	each := func(kvs []*commonpb.KeyValue) {
		for _, kv := range kvs {
			fn(kv)
		}
	}
	switch d := m.Data.(type) {
	case *metricspb.Metric_Sum:
		for _, p := range d.Sum.DataPoints {
			each(p.Attributes)
		}
	case *metricspb.Metric_Gauge:
		for _, p := range d.Gauge.DataPoints {
			each(p.Attributes)
		}
	case *metricspb.Metric_Histogram:
		for _, p := range d.Histogram.DataPoints {
			each(p.Attributes)
		}
	case *metricspb.Metric_ExponentialHistogram:
		for _, p := range d.ExponentialHistogram.DataPoints {
			each(p.Attributes)
		}
	}
}

// MetricAttrKeys collects every attribute key used by m's data points.
func MetricAttrKeys(m *metricspb.Metric) map[string]bool {
	keys := map[string]bool{}
	MetricAttrs(m, func(kv *commonpb.KeyValue) { keys[kv.Key] = true })
	return keys
}

// ForbiddenLabelKeys are attribute keys that must never label a metric
// (unbounded: identities, paths, content, error text).
var ForbiddenLabelKeys = []string{
	"fluzo.session.id", "fluzo.task.id", "fluzo.attempt.id", "fluzo.operation.id", "fluzo.observation.id",
	"gen_ai.conversation.id", "gen_ai.response.id", "gen_ai.tool.call.id", "trace_id", "span_id", "trace", "span",
	"path", "file.path", "prompt", "gen_ai.input.messages", "gen_ai.output.messages", "error.message", "exception.message",
}

// idValue matches Fluzo record IDs and hex trace/span IDs, which must
// never be metric label values.
var idValue = regexp.MustCompile(`^((ses|tsk|att|op|evt|req|grt|prj|msg|art)_[0-9A-Za-z]+|[0-9a-f]{16}|[0-9a-f]{32})$`)

// ForbiddenLabels lists "metric: key=value" for every metric label that
// is a forbidden key or carries an identifier as its value.
func ForbiddenLabels(metrics []*metricspb.Metric) []string {
	forbidden := map[string]bool{}
	for _, k := range ForbiddenLabelKeys {
		forbidden[k] = true
	}
	var out []string
	for _, m := range metrics {
		MetricAttrs(m, func(kv *commonpb.KeyValue) {
			v := kv.Value.GetStringValue()
			if forbidden[kv.Key] || idValue.MatchString(v) {
				out = append(out, m.Name+": "+kv.Key+"="+v)
			}
		})
	}
	return out
}
