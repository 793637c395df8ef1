package telemetry

import (
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
)

// Record types of the archive envelope.
const (
	RecordSpan   = "span"
	RecordMetric = "metric"
	RecordLog    = "log"
)

// Record is one archive line. Fields apply per type; readers ignore
// unknown fields. Every record carries its resource identity.
type Record struct {
	V        int            `json:"v"`
	Type     string         `json:"type"`
	TS       time.Time      `json:"ts"`
	Resource map[string]any `json:"resource"`
	Scope    string         `json:"scope,omitempty"`
	Trace    string         `json:"trace,omitempty"`
	Span     string         `json:"span,omitempty"`
	Attrs    map[string]any `json:"attrs,omitempty"`

	// span
	Parent     string       `json:"parent,omitempty"`
	Name       string       `json:"name,omitempty"`
	Kind       string       `json:"kind,omitempty"`
	Start      *time.Time   `json:"start,omitempty"`
	End        *time.Time   `json:"end,omitempty"`
	DurationMS *float64     `json:"duration_ms,omitempty"`
	Status     string       `json:"status,omitempty"`
	StatusMsg  string       `json:"status_message,omitempty"`
	Events     []SpanEvent  `json:"events,omitempty"`
	Links      []SpanLink   `json:"links,omitempty"`
	Metric     *MetricBody  `json:"metric,omitempty"`
	Log        *LogBody     `json:"log,omitempty"`
	Dropped    *DroppedInfo `json:"dropped,omitempty"`

	// resourceJSON is Resource already encoded (the resource cache's),
	// which appendRecord writes instead of encoding the map again.
	resourceJSON []byte
}

// SpanEvent is an event recorded on a span.
type SpanEvent struct {
	Name  string         `json:"name"`
	TS    time.Time      `json:"ts"`
	Attrs map[string]any `json:"attrs,omitempty"`
}

// SpanLink links a span to another trace (a resumed attempt's previous one).
type SpanLink struct {
	Trace string         `json:"trace"`
	Span  string         `json:"span"`
	Attrs map[string]any `json:"attrs,omitempty"`
}

// DroppedInfo reports attributes, events or links the SDK's limits dropped.
type DroppedInfo struct {
	Attrs  int `json:"attrs,omitempty"`
	Events int `json:"events,omitempty"`
	Links  int `json:"links,omitempty"`
}

// MetricBody is a metric snapshot: an SDK aggregate over a window.
type MetricBody struct {
	Name        string        `json:"name"`
	Unit        string        `json:"unit,omitempty"`
	Description string        `json:"description,omitempty"`
	Instrument  string        `json:"instrument"` // sum, gauge, histogram
	Temporality string        `json:"temporality,omitempty"`
	Monotonic   bool          `json:"monotonic,omitempty"`
	Points      []MetricPoint `json:"points"`
}

// MetricPoint is one attribute set's value in a window.
type MetricPoint struct {
	Attrs        map[string]any `json:"attrs,omitempty"`
	Start        time.Time      `json:"start"`
	End          time.Time      `json:"end"`
	Value        *float64       `json:"value,omitempty"`
	Count        *uint64        `json:"count,omitempty"`
	Sum          *float64       `json:"sum,omitempty"`
	Min          *float64       `json:"min,omitempty"`
	Max          *float64       `json:"max,omitempty"`
	Bounds       []float64      `json:"bounds,omitempty"`
	BucketCounts []uint64       `json:"bucket_counts,omitempty"`
}

// LogBody is a log record's severity and body.
type LogBody struct {
	Severity       string    `json:"severity"`
	SeverityNumber int       `json:"severity_number"`
	Body           any       `json:"body,omitempty"`
	Observed       time.Time `json:"observed"`
	EventName      string    `json:"event_name,omitempty"`
}

func attrMap(kvs []attribute.KeyValue) map[string]any {
	if len(kvs) == 0 {
		return nil
	}
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

func resourceMap(r *resource.Resource) map[string]any {
	if r == nil {
		return nil
	}
	return attrMap(r.Attributes())
}

func scopeName(s instrumentation.Scope) string { return s.Name }

// marshalLine serializes a record as one JSONL line.
func marshalLine(r *Record) ([]byte, error) {
	if b, ok := appendRecord(make([]byte, 0, 512), r); ok {
		return append(b, '\n'), nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
