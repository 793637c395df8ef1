package otlptest

import (
	"testing"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
)

func sumWith(name string, kv ...string) *metricspb.Metric {
	var attrs []*commonpb.KeyValue
	for i := 0; i+1 < len(kv); i += 2 {
		attrs = append(attrs, &commonpb.KeyValue{Key: kv[i], Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: kv[i+1]}}})
	}
	return &metricspb.Metric{Name: name, Data: &metricspb.Metric_Sum{Sum: &metricspb.Sum{DataPoints: []*metricspb.NumberDataPoint{{Attributes: attrs}}}}}
}

// The label check catches identity keys and identifier values under any
// key, and leaves bounded enums alone.
func TestForbiddenLabelsCatchIdentifiersUnderAnyKey(t *testing.T) {
	ms := []*metricspb.Metric{
		sumWith("fluzo.task.outcomes", "fluzo.outcome", "completed"),
		sumWith("fluzo.tool.duration", "fluzo.tool.name", "exec", "fluzo.outcome", "ok"),
		sumWith("a", "fluzo.task.id", "anything"),
		sumWith("b", "fluzo.outcome", "tsk_01M8NAD4J02GE3E0EPJ07WPNKE"),
		sumWith("c", "x", "644b040a88716a6e4bd93619ea273efd"),
		sumWith("d", "y", "644b040a88716a6e"),
	}
	bad := ForbiddenLabels(ms)
	if len(bad) != 4 {
		t.Fatalf("flagged %v, want the 4 metrics a–d", bad)
	}
	for i, want := range []string{"a: ", "b: ", "c: ", "d: "} {
		if bad[i][:3] != want {
			t.Errorf("flag %d = %q", i, bad[i])
		}
	}
}
