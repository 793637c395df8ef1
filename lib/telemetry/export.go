package telemetry

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/josecorral/fluzo/lib/telemetry/otlphttp"
	"go.opentelemetry.io/otel/attribute"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// errRedirectRefused marks a 3xx answer from the collector: exporters never
// follow redirects, so the redirect target is never contacted.
var errRedirectRefused = errors.New("telemetry export: redirect refused")

// errHTTPStatus marks a non-2xx, non-3xx collector answer.
var errHTTPStatus = errors.New("telemetry export: collector answered with an error status")

// guardTransport refuses redirects at the transport (in addition to
// CheckRedirect) and remembers the last error status for classification.
type guardTransport struct {
	base       http.RoundTripper
	lastStatus atomic.Int32
}

func (g *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := g.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	g.lastStatus.Store(int32(resp.StatusCode))
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		resp.Body.Close()
		return nil, errRedirectRefused
	}
	return resp, nil
}

// newExportClient builds the HTTP client every exporter uses: no proxy
// from the environment, no redirects, bounded timeouts, TLS 1.2+.
func newExportClient(timeout time.Duration) (*http.Client, *guardTransport) {
	base := &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: timeout}).DialContext,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
	}
	g := &guardTransport{base: base}
	return &http.Client{
		Transport: g,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errRedirectRefused
		},
	}, g
}

// deliveryError adds the status marker so classify can name the category.
func deliveryError(err error, g *guardTransport) error {
	if err == nil {
		return nil
	}
	if s := g.lastStatus.Load(); s >= 400 && !errors.Is(err, errRedirectRefused) {
		return fmt.Errorf("%w (%d)", errHTTPStatus, s)
	}
	return err
}

// exportSet holds the three OTLP exporters, each behind its own queue.
type exportSet struct {
	traces  *queue[sdktrace.ReadOnlySpan]
	logs    *queue[sdklog.Record]
	metrics sdkmetric.Exporter
}

// newExportSet configures every option explicitly so that no OTEL_*
// environment variable changes destination, headers, timeout or transport
// (lib/telemetry/otlphttp reads none).
func newExportSet(_ context.Context, e Export, ep endpoint, hs *healthSet) (*exportSet, error) {
	headers := map[string]string{}
	for k, v := range e.Headers {
		headers[k] = v
	}
	retry := otlphttp.Retry{Enabled: e.MaxRetryElapsed > 0, Initial: 200 * time.Millisecond, Max: 2 * time.Second,
		MaxElapsed: max(e.MaxRetryElapsed, 0)}
	sender := func(path string) (*otlphttp.Sender, *guardTransport) {
		client, guard := newExportClient(e.Timeout)
		return &otlphttp.Sender{Client: client, URL: ep.signalURL(path), Headers: headers, Timeout: e.Timeout, Retry: retry,
			Permanent: func(err error) bool { return errors.Is(err, errRedirectRefused) }}, guard
	}
	tSend, tGuard := sender("/v1/traces")
	mSend, mGuard := sender("/v1/metrics")
	lSend, lGuard := sender("/v1/logs")
	spanExp, logExp := otlphttp.TraceExporter{S: tSend}, otlphttp.LogExporter{S: lSend}

	th := hs.add("otlp.traces", "traces")
	lh := hs.add("otlp.logs", "logs")
	mh := hs.add("otlp.metrics", "metrics")
	return &exportSet{
		traces: newQueue(th, e.QueueRecords, e.QueueBytes, 512, 0, func(ctx context.Context, b []sdktrace.ReadOnlySpan) error {
			return deliveryError(spanExp.ExportSpans(ctx, b), tGuard)
		}),
		logs: newQueue(lh, e.QueueRecords, e.QueueBytes, 512, 0, func(ctx context.Context, b []sdklog.Record) error {
			return deliveryError(logExp.Export(ctx, b), lGuard)
		}),
		metrics: &countingMetricExporter{Exporter: otlphttp.MetricExporter{S: mSend}, health: mh, guard: mGuard},
	}, nil
}

func (x *exportSet) shutdown(ctx context.Context) error {
	return errors.Join(x.traces.close(ctx), x.logs.close(ctx))
}

// queuedSpanExporter admits spans into the export queue without blocking.
type queuedSpanExporter struct{ q *queue[sdktrace.ReadOnlySpan] }

func (e queuedSpanExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	for _, s := range spans {
		e.q.offer(s, estimateSpanBytes(s))
	}
	return nil
}

func (e queuedSpanExporter) Shutdown(context.Context) error { return nil }

// queuedLogExporter clones records (the SDK reuses them) into the queue.
type queuedLogExporter struct{ q *queue[sdklog.Record] }

func (e queuedLogExporter) Export(_ context.Context, records []sdklog.Record) error {
	for i := range records {
		r := records[i].Clone()
		e.q.offer(r, estimateLogBytes(&r))
	}
	return nil
}

// ForceFlush does not wait for delivery: admission already happened, and
// waiting here would let a stalled collector hold up the provider's
// shutdown and with it the local archive. Runtime.Flush waits on the
// export queues explicitly.
func (e queuedLogExporter) ForceFlush(context.Context) error { return nil }
func (e queuedLogExporter) Shutdown(context.Context) error   { return nil }

// countingMetricExporter reports metric export outcomes to health. The
// periodic reader calls it on its own goroutine with a bounded timeout.
type countingMetricExporter struct {
	sdkmetric.Exporter
	health *sinkHealth
	guard  *guardTransport
}

func (c *countingMetricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	n := 0
	for _, sm := range rm.ScopeMetrics {
		n += len(sm.Metrics)
	}
	c.health.queued(n, 0)
	err := deliveryError(c.Exporter.Export(ctx, rm), c.guard)
	c.health.queued(0, 0)
	if err != nil {
		// Counted in health; not returned, so the SDK does not report
		// the same outage again through its global error handler.
		c.health.failed(err, n)
		return nil
	}
	c.health.delivered(n)
	return nil
}

// Estimates bound memory for queued SDK objects; archive sinks count
// exact serialized bytes instead.
func estimateSpanBytes(s sdktrace.ReadOnlySpan) int {
	n := 128 + len(s.Name())
	for _, kv := range s.Attributes() {
		n += len(kv.Key) + len(kv.Value.String()) + 16
	}
	return n + 64*(len(s.Events())+len(s.Links()))
}

func estimateLogBytes(r *sdklog.Record) int {
	n := 128 + len(r.Body().String())
	r.WalkAttributes(func(kv attribute.KeyValue) bool {
		n += len(kv.Key) + len(kv.Value.String()) + 16
		return true
	})
	return n
}
