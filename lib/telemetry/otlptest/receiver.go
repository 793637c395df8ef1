// Package otlptest is an OTLP/HTTP receiver for tests: a real HTTP server
// on 127.0.0.1 that decodes the protobuf payloads of traces, metrics and
// logs, as a Collector's OTLP receiver would, and keeps what arrived.
//
// It is used by lib/telemetry's and lib/agent's tests and by the
// testscripts' otlp-* commands; it is not linked into any binary.
package otlptest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Receiver collects what OTLP http/protobuf exporters send to
// /v1/traces, /v1/metrics and /v1/logs.
type Receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	spans   []*tracepb.Span
	logs    []*logspb.LogRecord
	metrics []*metricspb.Metric
	hits    int
	header  http.Header
	hold    chan struct{}
}

// Start listens on addr ("" picks a free 127.0.0.1 port).
func Start(addr string) (*Receiver, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	r := &Receiver{}
	r.srv = &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(r.serve)}}
	r.srv.Start()
	return r, nil
}

// URL is the receiver's base URL (the exporters' endpoint).
func (r *Receiver) URL() string { return r.srv.URL }

// Hold makes every request wait until Release (a collector that accepts
// connections but never answers).
func (r *Receiver) Hold() {
	r.mu.Lock()
	if r.hold == nil {
		r.hold = make(chan struct{})
	}
	r.mu.Unlock()
}

// Release answers held requests and stops holding new ones.
func (r *Receiver) Release() {
	r.mu.Lock()
	if r.hold != nil {
		close(r.hold)
		r.hold = nil
	}
	r.mu.Unlock()
}

// Close releases held requests and stops the server.
func (r *Receiver) Close() {
	r.Release()
	r.srv.CloseClientConnections()
	r.srv.Close()
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
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
		if err = proto.Unmarshal(body, &m); err == nil {
			r.addSpans(&m)
		}
		resp = &coltrace.ExportTraceServiceResponse{}
	case "/v1/metrics":
		var m colmetrics.ExportMetricsServiceRequest
		if err = proto.Unmarshal(body, &m); err == nil {
			r.addMetrics(&m)
		}
		resp = &colmetrics.ExportMetricsServiceResponse{}
	case "/v1/logs":
		var m collogs.ExportLogsServiceRequest
		if err = proto.Unmarshal(body, &m); err == nil {
			r.addLogs(&m)
		}
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

func (r *Receiver) addSpans(m *coltrace.ExportTraceServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range m.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
}

func (r *Receiver) addMetrics(m *colmetrics.ExportMetricsServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rm := range m.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			r.metrics = append(r.metrics, sm.Metrics...)
		}
	}
}

func (r *Receiver) addLogs(m *collogs.ExportLogsServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rl := range m.ResourceLogs {
		for _, sl := range rl.ScopeLogs {
			r.logs = append(r.logs, sl.LogRecords...)
		}
	}
}

// Snapshot returns copies of what arrived so far and the request count.
func (r *Receiver) Snapshot() (spans []*tracepb.Span, metrics []*metricspb.Metric, logs []*logspb.LogRecord, hits int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...), append([]*metricspb.Metric(nil), r.metrics...), append([]*logspb.LogRecord(nil), r.logs...), r.hits
}

// Header returns the headers of the last request.
func (r *Receiver) Header() http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.header.Clone()
}
