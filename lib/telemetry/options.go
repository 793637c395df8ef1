package telemetry

import (
	"net/url"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/core"
)

// Options configures a telemetry Runtime. The zero value is valid: it
// archives nothing, exports nothing, and every helper is a cheap no-op
// apart from metric aggregation.
type Options struct {
	// DriveDir is the workspace's .fluzodrive directory. When set, the local
	// archive is written to DriveDir/telemetry/. Empty disables the archive.
	DriveDir string
	// ServiceName defaults to "fluzo"; ServiceVersion to core.Version.
	ServiceName    string
	ServiceVersion string
	// Component names the emitting binary (fluzo-agent, fluzo-observe…).
	Component string
	// Mode is the execution mode (headless, interactive, demo); a bounded
	// resource attribute, never a metric label.
	Mode string
	// ConfigFingerprint identifies the effective configuration.
	ConfigFingerprint string
	// Export configures the opt-in OTLP http/protobuf export.
	Export Export
	// CaptureContent permits prompt/response content on spans. Off by
	// default; helpers drop content attributes unless it is set.
	CaptureContent bool
	// Archive bounds the local archive; zero fields take defaults.
	Archive ArchiveLimits
	// MetricInterval is how often metrics are collected and written
	// (default 30s). Shutdown always collects once more.
	MetricInterval time.Duration
	// ShutdownTimeout bounds Shutdown's flush (default 3s) when the
	// caller's context has no earlier deadline.
	ShutdownTimeout time.Duration
}

// Export is the opt-in OTLP http/protobuf export. No OTEL_* environment
// variable changes any of it: every exporter option is set explicitly.
type Export struct {
	Enabled bool
	// Endpoint is the collector's base URL, e.g. http://127.0.0.1:4318.
	// The signal paths /v1/traces, /v1/metrics and /v1/logs are appended.
	Endpoint string
	// TrustedInsecure is the explicit exception that allows plain HTTP to a
	// non-loopback host (a protected network the user vouches for).
	TrustedInsecure bool
	// Headers are sent with every export (e.g. authorization). They are
	// never recorded in telemetry, health or errors.
	Headers map[string]string
	// Timeout bounds one export request (default 5s).
	Timeout time.Duration
	// MaxRetryElapsed bounds retries of one batch (default 10s; negative
	// disables retries).
	MaxRetryElapsed time.Duration
	// QueueRecords and QueueBytes bound each signal's export queue.
	QueueRecords int
	QueueBytes   int
}

// ArchiveLimits bounds the local archive's memory and segment sizes.
type ArchiveLimits struct {
	// SegmentBytes is the size at which a segment file is rotated (default
	// 8 MiB). Rotation never deletes or overwrites a segment.
	SegmentBytes int64
	// QueueRecords and QueueBytes bound each signal's archive queue
	// (defaults 4096 records, 4 MiB).
	QueueRecords int
	QueueBytes   int
	// MaxRecordBytes refuses a single oversized record (default 256 KiB).
	MaxRecordBytes int
	// MaxTotalBytes bounds the whole archive directory (0 = no bound; the
	// storage.diagnostic_max_bytes setting). Past it new records are
	// dropped as "archive_full"; nothing old is deleted to make room.
	MaxTotalBytes int64
}

const (
	defaultSegmentBytes    = 8 << 20
	defaultQueueRecords    = 4096
	defaultQueueBytes      = 4 << 20
	defaultMaxRecordBytes  = 256 << 10
	defaultMetricInterval  = 30 * time.Second
	defaultShutdownTimeout = 3 * time.Second
	defaultExportTimeout   = 5 * time.Second
	defaultRetryElapsed    = 10 * time.Second
)

func (o Options) withDefaults() Options {
	if o.ServiceName == "" {
		o.ServiceName = "fluzo"
	}
	if o.ServiceVersion == "" {
		o.ServiceVersion = core.Version
	}
	if o.MetricInterval <= 0 {
		o.MetricInterval = defaultMetricInterval
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = defaultShutdownTimeout
	}
	a := &o.Archive
	if a.SegmentBytes <= 0 {
		a.SegmentBytes = defaultSegmentBytes
	}
	if a.QueueRecords <= 0 {
		a.QueueRecords = defaultQueueRecords
	}
	if a.QueueBytes <= 0 {
		a.QueueBytes = defaultQueueBytes
	}
	if a.MaxRecordBytes <= 0 {
		a.MaxRecordBytes = defaultMaxRecordBytes
	}
	e := &o.Export
	if e.Timeout <= 0 {
		e.Timeout = defaultExportTimeout
	}
	if e.MaxRetryElapsed == 0 {
		e.MaxRetryElapsed = defaultRetryElapsed
	}
	if e.QueueRecords <= 0 {
		e.QueueRecords = defaultQueueRecords
	}
	if e.QueueBytes <= 0 {
		e.QueueBytes = defaultQueueBytes
	}
	return o
}

// endpoint is a validated export destination.
type endpoint struct {
	base     *url.URL
	insecure bool
}

func (e endpoint) signalURL(path string) string {
	u := *e.base
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	return u.String()
}

// validateEndpoint enforces the destination policy: https anywhere, plain
// http only to a loopback host or with the explicit trusted exception, and
// no credentials, query or fragment in the URL (they would leak into logs).
func validateEndpoint(e Export) (endpoint, error) {
	raw := strings.TrimSpace(e.Endpoint)
	if raw == "" {
		return endpoint{}, core.Errorf(core.CodeInvalidConfiguration, "telemetry export is enabled but otlp_endpoint is empty").
			With("key", "telemetry.otlp_endpoint").
			WithHint("set [telemetry] otlp_endpoint, e.g. http://127.0.0.1:4318, or set export_enabled = false")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return endpoint{}, core.Errorf(core.CodeInvalidConfiguration, "otlp_endpoint %q is not an http(s) URL with a host", redactURL(raw)).
			With("key", "telemetry.otlp_endpoint").
			WithHint("use a base URL such as https://collector.example:4318 or http://127.0.0.1:4318")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return endpoint{}, core.Errorf(core.CodeInvalidConfiguration, "otlp_endpoint must not carry credentials, a query or a fragment").
			With("key", "telemetry.otlp_endpoint").
			WithHint("put credentials in export headers configured outside the repository")
	}
	insecure := u.Scheme == "http"
	if insecure && !isLoopbackHost(u.Hostname()) && !e.TrustedInsecure {
		return endpoint{}, core.Errorf(core.CodeInvalidConfiguration, "otlp_endpoint %s uses plain HTTP to a non-loopback host", u.Host).
			With("key", "telemetry.otlp_endpoint").
			WithHint("use https, a loopback collector (127.0.0.1), or declare the explicit trusted-network exception")
	}
	return endpoint{base: u, insecure: insecure}, nil
}

// isLoopbackHost is the consent rule's loopback test (localhost and
// loopback IP literals only; names are never resolved).
func isLoopbackHost(h string) bool { return consent.IsLoopbackHost(h) }

// redactURL keeps scheme and host only, for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(unparseable)"
	}
	return u.Scheme + "://" + u.Host
}
