package telemetry

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// receiver is an in-test OTLP/HTTP collector on 127.0.0.1 that decodes
// the protobuf payloads of all three signals.
type receiver struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	spans  []*tracepb.Span
	logs   []*logspb.LogRecord
	metric []*metricspb.Metric
	hits   int
	header http.Header
	// hold, when set, makes every request wait for it to close.
	hold chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{t: t}
	r.srv = newLoopbackServer(r)
	t.Cleanup(r.close)
	return r
}

func newLoopbackServer(r *receiver) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(r.serve))
}

// newReceiverAt listens on a fixed loopback address (for outage recovery).
func newReceiverAt(t *testing.T, addr string) *receiver {
	r := &receiver{t: t}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen %s: %v", addr, err)
	}
	r.srv = &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(r.serve)}}
	r.srv.Start()
	t.Cleanup(r.close)
	return r
}

func (r *receiver) close() {
	r.mu.Lock()
	if r.hold != nil {
		select {
		case <-r.hold:
		default:
			close(r.hold)
		}
	}
	r.mu.Unlock()
	r.srv.CloseClientConnections()
	r.srv.Close()
}

func (r *receiver) url() string { return r.srv.URL }

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.hits++
	r.header = req.Header.Clone()
	hold := r.hold
	r.mu.Unlock()
	if hold != nil {
		<-hold
	}
	body, err := io.ReadAll(req.Body)
	if err != nil || req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var resp proto.Message
	switch req.URL.Path {
	case "/v1/traces":
		var m coltrace.ExportTraceServiceRequest
		err = proto.Unmarshal(body, &m)
		r.mu.Lock()
		for _, rs := range m.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
		r.mu.Unlock()
		resp = &coltrace.ExportTraceServiceResponse{}
	case "/v1/metrics":
		var m colmetrics.ExportMetricsServiceRequest
		err = proto.Unmarshal(body, &m)
		r.mu.Lock()
		for _, rm := range m.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				r.metric = append(r.metric, sm.Metrics...)
			}
		}
		r.mu.Unlock()
		resp = &colmetrics.ExportMetricsServiceResponse{}
	case "/v1/logs":
		var m collogs.ExportLogsServiceRequest
		err = proto.Unmarshal(body, &m)
		r.mu.Lock()
		for _, rl := range m.ResourceLogs {
			for _, sl := range rl.ScopeLogs {
				r.logs = append(r.logs, sl.LogRecords...)
			}
		}
		r.mu.Unlock()
		resp = &collogs.ExportLogsServiceResponse{}
	default:
		http.NotFound(w, req)
		return
	}
	if err != nil {
		http.Error(w, "undecodable", http.StatusBadRequest)
		return
	}
	out, _ := proto.Marshal(resp)
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func (r *receiver) snapshot() (spans []*tracepb.Span, metrics []*metricspb.Metric, logs []*logspb.LogRecord, hits int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...), append([]*metricspb.Metric(nil), r.metric...), append([]*logspb.LogRecord(nil), r.logs...), r.hits
}

func attrOf(kvs []*commonpb.KeyValue, key string) (*commonpb.AnyValue, bool) {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// metricAttrKeys collects every attribute key used by a metric's points.
func metricAttrKeys(m *metricspb.Metric) map[string]bool {
	keys := map[string]bool{}
	add := func(kvs []*commonpb.KeyValue) {
		for _, kv := range kvs {
			keys[kv.Key] = true
		}
	}
	switch d := m.Data.(type) {
	case *metricspb.Metric_Sum:
		for _, p := range d.Sum.DataPoints {
			add(p.Attributes)
		}
	case *metricspb.Metric_Gauge:
		for _, p := range d.Gauge.DataPoints {
			add(p.Attributes)
		}
	case *metricspb.Metric_Histogram:
		for _, p := range d.Histogram.DataPoints {
			add(p.Attributes)
		}
	}
	return keys
}
