package telemetry

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Health is the local projection of telemetry delivery, independent of
// whether any export succeeds. It is what `fluzo-observe health` prints.
type Health struct {
	V       int       `json:"v"`
	Type    string    `json:"type"` // "telemetry.health"
	TS      time.Time `json:"ts"`
	PID     int       `json:"pid"`
	Enabled bool      `json:"enabled"`
	State   string    `json:"state"` // ok, degraded, disabled
	// Gaps is true once any record was dropped: delivery resumed after an
	// outage does not hide the records lost during it.
	Gaps      bool         `json:"gaps"`
	SDKErrors int64        `json:"sdk_errors"`
	Sinks     []SinkHealth `json:"sinks"`
}

// SinkHealth describes one sink: an archive or export queue for a signal.
type SinkHealth struct {
	Name           string           `json:"name"`   // e.g. archive.traces, otlp.logs
	Signal         string           `json:"signal"` // traces, metrics, logs
	State          string           `json:"state"`  // ok, degraded
	Queued         int              `json:"queued"`
	QueuedBytes    int              `json:"queued_bytes"`
	MaxRecords     int              `json:"max_records"`
	MaxBytes       int              `json:"max_bytes"`
	HighWater      int              `json:"high_water"`
	Accepted       int64            `json:"accepted"`
	Delivered      int64            `json:"delivered"`
	Dropped        map[string]int64 `json:"dropped,omitempty"`
	Failures       int64            `json:"failures"`
	LastError      string           `json:"last_error,omitempty"` // a category, never raw text
	LastErrorAt    *time.Time       `json:"last_error_at,omitempty"`
	LastDeliveryAt *time.Time       `json:"last_delivery_at,omitempty"`
}

// DroppedTotal sums drops over every reason.
func (s SinkHealth) DroppedTotal() int64 {
	var n int64
	for _, v := range s.Dropped {
		n += v
	}
	return n
}

// Error categories reported instead of raw error text.
const (
	ErrTimeout         = "timeout"
	ErrConnRefused     = "connection_refused"
	ErrRedirectRefused = "redirect_refused"
	ErrHTTPStatus      = "http_status"
	ErrTLS             = "tls"
	ErrIO              = "io"
	ErrCancelled       = "cancelled"
	ErrOther           = "other"
)

// sinkHealth is the mutable, concurrency-safe counterpart of SinkHealth.
type sinkHealth struct {
	mu      sync.Mutex
	s       SinkHealth
	failing bool
	notify  *atomic.Pointer[func(SinkHealth, bool)]
}

func newSinkHealth(name, signal string, notify *atomic.Pointer[func(SinkHealth, bool)]) *sinkHealth {
	return &sinkHealth{s: SinkHealth{Name: name, Signal: signal, State: "ok", Dropped: map[string]int64{}}, notify: notify}
}

func (h *sinkHealth) setBounds(items, bytes int) {
	h.mu.Lock()
	h.s.MaxRecords, h.s.MaxBytes = items, bytes
	h.mu.Unlock()
}

func (h *sinkHealth) queued(n, bytes int) {
	h.mu.Lock()
	if n > h.s.Queued {
		h.s.Accepted += int64(n - h.s.Queued)
	}
	h.s.Queued, h.s.QueuedBytes = n, bytes
	h.s.HighWater = max(h.s.HighWater, n)
	h.mu.Unlock()
}

func (h *sinkHealth) drop(reason string, n int) {
	h.mu.Lock()
	h.s.Dropped[reason] += int64(n)
	h.s.State = "degraded"
	h.mu.Unlock()
}

func (h *sinkHealth) failed(err error, n int) {
	now := time.Now().UTC()
	h.mu.Lock()
	wasOK := !h.failing
	h.failing = true
	h.s.Failures++
	h.s.Dropped[DropDeliveryKO] += int64(n)
	h.s.LastError = classify(err)
	h.s.LastErrorAt = &now
	h.s.State = "degraded"
	h.mu.Unlock()
	if wasOK {
		h.transition(false)
	}
}

// transition reports a change between delivering and failing once per
// change (never per record), through the hook the Runtime installs. It
// runs on the sink's worker, never on a producer's path.
func (h *sinkHealth) transition(recovered bool) {
	if f := h.notify.Load(); f != nil {
		(*f)(h.snapshot(), recovered)
	}
}

// delivered records success. The sink returns to "ok" for new records;
// earlier drops stay counted so the gap remains visible.
func (h *sinkHealth) delivered(n int) {
	now := time.Now().UTC()
	h.mu.Lock()
	recovered := h.failing
	h.failing = false
	h.s.Delivered += int64(n)
	h.s.LastDeliveryAt = &now
	h.s.State = "ok"
	h.mu.Unlock()
	if recovered {
		h.transition(true)
	}
}

func (h *sinkHealth) snapshot() SinkHealth {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.s
	s.Dropped = make(map[string]int64, len(h.s.Dropped))
	for k, v := range h.s.Dropped {
		s.Dropped[k] = v
	}
	return s
}

// classify maps an error to a bounded category, so that health, logs and
// metrics never carry raw error text (which may hold URLs or headers).
func classify(err error) string {
	var tlsErr *x509.UnknownAuthorityError
	var certErr x509.CertificateInvalidError
	var netErr net.Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, errRedirectRefused):
		return ErrRedirectRefused
	case errors.Is(err, context.Canceled):
		return ErrCancelled
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return ErrTimeout
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET):
		return ErrConnRefused
	case errors.As(err, &tlsErr), errors.As(err, &certErr):
		return ErrTLS
	case errors.As(err, &netErr) && netErr.Timeout():
		return ErrTimeout
	case errors.Is(err, errHTTPStatus):
		return ErrHTTPStatus
	case errors.Is(err, os.ErrPermission), errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EIO):
		return ErrIO
	}
	return ErrOther
}

// healthSet holds every sink of a Runtime.
type healthSet struct {
	mu     sync.Mutex
	sinks  []*sinkHealth
	notify atomic.Pointer[func(SinkHealth, bool)]
}

func (hs *healthSet) add(name, signal string) *sinkHealth {
	h := newSinkHealth(name, signal, &hs.notify)
	hs.mu.Lock()
	hs.sinks = append(hs.sinks, h)
	hs.mu.Unlock()
	return h
}

func (hs *healthSet) snapshot() []SinkHealth {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	out := make([]SinkHealth, 0, len(hs.sinks))
	for _, h := range hs.sinks {
		out = append(out, h.snapshot())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
