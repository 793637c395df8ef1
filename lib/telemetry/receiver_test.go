package telemetry

import (
	"testing"

	"github.com/josecorral/fluzo/lib/telemetry/otlptest"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// receiver is the in-test OTLP/HTTP collector on 127.0.0.1 that decodes
// the protobuf payloads of all three signals (lib/telemetry/otlptest,
// shared with lib/agent's tests and the testscripts).
type receiver struct{ *otlptest.Receiver }

func newReceiver(t testing.TB) *receiver { return newReceiverAt(t, "") }

// newReceiverAt listens on a fixed loopback address (for outage recovery).
func newReceiverAt(t testing.TB, addr string) *receiver {
	r, err := otlptest.Start(addr)
	if err != nil {
		t.Fatalf("listen %s: %v", addr, err)
	}
	t.Cleanup(r.Close)
	return &receiver{r}
}

func (r *receiver) url() string { return r.URL() }

func (r *receiver) snapshot() (spans []*tracepb.Span, metrics []*metricspb.Metric, logs []*logspb.LogRecord, hits int) {
	return r.Snapshot()
}

func attrOf(kvs []*commonpb.KeyValue, key string) (*commonpb.AnyValue, bool) {
	return otlptest.AttrOf(kvs, key)
}

// metricAttrKeys collects every attribute key used by a metric's points.
func metricAttrKeys(m *metricspb.Metric) map[string]bool { return otlptest.MetricAttrKeys(m) }
