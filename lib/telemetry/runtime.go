package telemetry

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/contrib/bridges/otelslog"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// ScopeName is the instrumentation scope of Fluzo's own telemetry.
const ScopeName = "github.com/josecorral/fluzo"

// Runtime owns the tracer, meter and logger providers of one process. A
// nil *Runtime is valid everywhere and does nothing.
type Runtime struct {
	opts     Options
	dir      string
	tp       *sdktrace.TracerProvider
	mp       *sdkmetric.MeterProvider
	lp       *sdklog.LoggerProvider
	tracer   trace.Tracer
	meter    metric.Meter
	logger   *slog.Logger
	metrics  *Metrics
	health   healthSet
	archives []*archiveSink
	lock     *writerLock
	stopSnap chan struct{}
	snapDone chan struct{}
	export   *exportSet
	stopOnce sync.Once
	stopped  atomic.Bool
}

var installGlobalsOnce sync.Once

// sdkErrors counts errors the OTel SDK reports internally, for the process.
var sdkErrors atomic.Int64

// installGlobals keeps the SDK from writing to stderr (which would corrupt
// the TUI) and from recursively logging exporter failures.
func installGlobals() {
	installGlobalsOnce.Do(func() {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) { sdkErrors.Add(1) }))
		otel.SetLogger(logr.Discard())
	})
}

// Start builds the providers: the local archive when DriveDir is set, the
// OTLP export when Export.Enabled. It fails only on invalid configuration
// or an unusable archive directory; export outages are never errors.
func Start(ctx context.Context, o Options) (*Runtime, error) {
	installGlobals()
	o = o.withDefaults()
	rt := &Runtime{opts: o}
	var ep endpoint
	if o.Export.Enabled {
		var err error
		if ep, err = validateEndpoint(o.Export); err != nil {
			return nil, err
		}
	}
	if o.DriveDir != "" {
		dir, err := openArchiveDir(o.DriveDir)
		if err != nil {
			return nil, err
		}
		lock, err := acquireWriter(dir, 2*time.Second)
		if err != nil {
			return nil, err
		}
		rt.dir, rt.lock = dir, lock
	}
	res := rt.resource()

	tpOpts := []sdktrace.TracerProviderOption{
		sdktrace.WithResource(res), sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithIDGenerator(newIDGenerator()),
		sdktrace.WithRawSpanLimits(spanLimits()),
	}
	mpOpts := []sdkmetric.Option{sdkmetric.WithResource(res)}
	lpOpts := []sdklog.LoggerProviderOption{sdklog.WithResource(res), sdklog.WithAttributeCountLimit(64), sdklog.WithAttributeValueLengthLimit(4096)}
	readerOpts := func() []sdkmetric.PeriodicReaderOption {
		return []sdkmetric.PeriodicReaderOption{sdkmetric.WithInterval(o.MetricInterval), sdkmetric.WithTimeout(o.Export.Timeout)}
	}

	if rt.dir != "" {
		budget := newArchiveBudget(rt.dir, o.Archive.MaxTotalBytes)
		spans := newArchiveSink(&rt.health, rt.dir, "traces", o.Archive, budget)
		metrics := newArchiveSink(&rt.health, rt.dir, "metrics", o.Archive, budget)
		logs := newArchiveSink(&rt.health, rt.dir, "logs", o.Archive, budget)
		rt.archives = []*archiveSink{spans, metrics, logs}
		tpOpts = append(tpOpts, sdktrace.WithSpanProcessor(sdktrace.NewSimpleSpanProcessor(&spanArchiver{sink: spans})))
		mpOpts = append(mpOpts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(&metricArchiver{sink: metrics}, readerOpts()...)))
		lpOpts = append(lpOpts, sdklog.WithProcessor(sdklog.NewSimpleProcessor(&logArchiver{sink: logs})))
	}
	if o.Export.Enabled {
		x, err := newExportSet(ctx, o.Export, ep, &rt.health)
		if err != nil {
			rt.shutdownSinks(ctx)
			rt.lock.release()
			return nil, err
		}
		rt.export = x
		tpOpts = append(tpOpts, sdktrace.WithSpanProcessor(sdktrace.NewSimpleSpanProcessor(queuedSpanExporter{x.traces})))
		mpOpts = append(mpOpts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(x.metrics, readerOpts()...)))
		lpOpts = append(lpOpts, sdklog.WithProcessor(sdklog.NewSimpleProcessor(queuedLogExporter{x.logs})))
	}

	rt.tp = sdktrace.NewTracerProvider(tpOpts...)
	rt.mp = sdkmetric.NewMeterProvider(mpOpts...)
	rt.lp = sdklog.NewLoggerProvider(lpOpts...)
	rt.tracer = rt.tp.Tracer(ScopeName, trace.WithInstrumentationVersion(o.ServiceVersion))
	rt.meter = rt.mp.Meter(ScopeName, metric.WithInstrumentationVersion(o.ServiceVersion))
	rt.logger = otelslog.NewLogger(ScopeName, otelslog.WithLoggerProvider(rt.lp), otelslog.WithVersion(o.ServiceVersion))
	m, err := newMetrics(rt.meter, rt)
	if err != nil {
		rt.shutdownSinks(ctx)
		rt.lock.release()
		return nil, err
	}
	rt.metrics = m
	rt.reportTransitions()
	if rt.dir != "" {
		rt.stopSnap, rt.snapDone = make(chan struct{}), make(chan struct{})
		go rt.snapshotLoop(o.MetricInterval)
	}
	return rt, nil
}

// snapshotLoop refreshes health.json while the process runs, so that
// fluzo-observe health sees a live writer's drops without waiting for it
// to exit. Write failures are ignored here: the snapshot is advisory and
// the in-memory counters remain authoritative.
func (rt *Runtime) snapshotLoop(every time.Duration) {
	defer close(rt.snapDone)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-rt.stopSnap:
			return
		case <-t.C:
			writeHealthSnapshot(rt.dir, rt.Health())
		}
	}
}

// reportTransitions logs each sink's change between failing and
// delivering, with the drops so far, so that an outage and the gap it left
// are in the local archive (and, once it recovers, at the collector). It
// is one record per change, never one per dropped record.
func (rt *Runtime) reportTransitions() {
	f := func(s SinkHealth, recovered bool) {
		if recovered {
			rt.logger.Info("telemetry delivery recovered", "sink", s.Name, "dropped_total", s.DroppedTotal(), "failures", s.Failures)
			return
		}
		rt.logger.Warn("telemetry delivery failing", "sink", s.Name, "error", s.LastError, "dropped_total", s.DroppedTotal())
	}
	rt.health.notify.Store(&f)
}

// spanLimits are explicit so OTEL_SPAN_* variables change nothing.
func spanLimits() sdktrace.SpanLimits {
	return sdktrace.SpanLimits{
		AttributeValueLengthLimit: 4096, AttributeCountLimit: 128, EventCountLimit: 128, LinkCountLimit: 16,
		AttributePerEventCountLimit: 32, AttributePerLinkCountLimit: 16,
	}
}

// resource is built without resource.Default or WithFromEnv, so that
// OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME change nothing.
func (rt *Runtime) resource() *resource.Resource {
	o := rt.opts
	attrs := []attribute.KeyValue{
		attribute.String("service.name", o.ServiceName),
		attribute.String("service.version", o.ServiceVersion),
		attribute.Int("process.pid", os.Getpid()),
		attribute.String("telemetry.sdk.language", "go"),
		attribute.String("telemetry.sdk.name", "opentelemetry"),
		attribute.String("telemetry.sdk.version", otel.Version()),
		attribute.String("fluzo.genai.semconv_revision", GenAISemconvRevision),
	}
	if h, err := os.Hostname(); err == nil {
		attrs = append(attrs, attribute.String("host.name", h))
	}
	for k, v := range map[string]string{"fluzo.component": o.Component, "fluzo.mode": o.Mode, "fluzo.config.fingerprint": o.ConfigFingerprint} {
		if v != "" {
			attrs = append(attrs, attribute.String(k, v))
		}
	}
	return resource.NewSchemaless(attrs...)
}

// Tracer returns the runtime's tracer (a no-op tracer for a nil Runtime).
func (rt *Runtime) Tracer() trace.Tracer {
	if rt == nil {
		return tracenoop.NewTracerProvider().Tracer(ScopeName)
	}
	return rt.tracer
}

// Meter returns the runtime's meter (a no-op meter for a nil Runtime).
func (rt *Runtime) Meter() metric.Meter {
	if rt == nil {
		return metricnoop.NewMeterProvider().Meter(ScopeName)
	}
	return rt.meter
}

// Logger returns an slog.Logger bridged into OTel logs. Use the *Context
// methods (InfoContext…) so records carry the current trace and span IDs.
// A nil Runtime returns a logger that discards everything.
func (rt *Runtime) Logger() *slog.Logger {
	if rt == nil {
		return slog.New(slog.DiscardHandler)
	}
	return rt.logger
}

// Metrics returns the instruments; nil-safe.
func (rt *Runtime) Metrics() *Metrics {
	if rt == nil {
		return nil
	}
	return rt.metrics
}

// CaptureContent reports whether content capture was explicitly enabled.
func (rt *Runtime) CaptureContent() bool { return rt != nil && rt.opts.CaptureContent }

// ArchiveDir returns the archive directory, "" when not archiving.
func (rt *Runtime) ArchiveDir() string {
	if rt == nil {
		return ""
	}
	return rt.dir
}

// Flush pushes every completed span, metric and log to its sinks, within
// ctx. It is for tests and checkpoints; Shutdown flushes too.
func (rt *Runtime) Flush(ctx context.Context) error {
	if rt == nil || rt.stopped.Load() {
		return nil
	}
	err := errors.Join(rt.tp.ForceFlush(ctx), rt.mp.ForceFlush(ctx), rt.lp.ForceFlush(ctx))
	for _, a := range rt.archives {
		err = errors.Join(err, a.flush(ctx))
	}
	if rt.export != nil {
		err = errors.Join(err, rt.export.traces.flush(ctx), rt.export.logs.flush(ctx))
	}
	return err
}

// FlushArchive writes what the local archive has queued (spans and logs
// reach it synchronously as they end; its queue lingers to batch writes)
// within ctx, waiting on no exporter: a reader of the archive in this
// process — the port's diagnose — then sees everything recorded before.
func (rt *Runtime) FlushArchive(ctx context.Context) error {
	if rt == nil || rt.stopped.Load() {
		return nil
	}
	var err error
	for _, a := range rt.archives {
		err = errors.Join(err, a.flush(ctx))
	}
	return err
}

// Shutdown stops admission and flushes every sink within the earlier of
// ctx's deadline and Options.ShutdownTimeout. Records that could not be
// delivered in time are counted as dropped; a health snapshot is written
// to the archive directory. It never waits on a collector past the bound.
func (rt *Runtime) Shutdown(ctx context.Context) error {
	if rt == nil {
		return nil
	}
	var err error
	rt.stopOnce.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, rt.opts.ShutdownTimeout)
		defer cancel()
		if rt.stopSnap != nil {
			close(rt.stopSnap)
			<-rt.snapDone
		}
		// Providers first: they push their last spans, logs and metrics
		// into the queues; then the queues drain within the same deadline.
		// Archive processors and readers are registered before export
		// ones and metrics go last, so a dead collector that eats the
		// deadline cannot starve the local archive.
		err = errors.Join(rt.tp.Shutdown(ctx), rt.lp.Shutdown(ctx), rt.mp.Shutdown(ctx))
		err = errors.Join(err, rt.shutdownSinks(ctx))
		rt.stopped.Store(true)
		if rt.dir != "" {
			err = errors.Join(err, writeHealthSnapshot(rt.dir, rt.Health()))
		}
		rt.lock.release()
	})
	return err
}

func (rt *Runtime) shutdownSinks(ctx context.Context) error {
	var err error
	if rt.export != nil {
		err = errors.Join(err, rt.export.shutdown(ctx))
	}
	for _, a := range rt.archives {
		err = errors.Join(err, a.shutdown(ctx))
	}
	return err
}

// Health returns the current per-sink health. It is served from memory
// and never waits on a sink.
func (rt *Runtime) Health() Health {
	h := Health{V: 1, Type: "telemetry.health", TS: time.Now().UTC(), PID: os.Getpid(), State: "disabled"}
	if rt == nil {
		return h
	}
	h.Sinks = rt.health.snapshot()
	h.SDKErrors = sdkErrors.Load()
	h.Enabled = len(h.Sinks) > 0
	if h.Enabled {
		h.State = "ok"
		for _, s := range h.Sinks {
			if s.State != "ok" {
				h.State = "degraded"
			}
			if s.DroppedTotal() > 0 {
				h.Gaps = true
			}
		}
	}
	return h
}
