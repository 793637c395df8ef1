package telemetry

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

func sink(h Health, name string) SinkHealth {
	for _, s := range h.Sinks {
		if s.Name == name {
			return s
		}
	}
	return SinkHealth{}
}

func TestRedirectingCollectorTargetNeverContacted(t *testing.T) {
	target := newReceiver(t)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.url()+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()
	rt := startExport(t, redirector.URL, Options{Export: Export{MaxRetryElapsed: 2 * time.Second}})
	runTurn(rt)
	rt.Shutdown(context.Background())
	if _, _, _, hits := target.snapshot(); hits != 0 {
		t.Fatalf("redirect target contacted %d times", hits)
	}
	for _, name := range []string{"otlp.traces", "otlp.logs", "otlp.metrics"} {
		s := sink(rt.Health(), name)
		if s.LastError != ErrRedirectRefused || s.Dropped[DropDeliveryKO] == 0 {
			t.Errorf("%s health = %+v, want redirect_refused and counted drops", name, s)
		}
	}
}

// freeLoopbackAddr reserves a loopback port and releases it, so that a
// collector can later appear there.
func freeLoopbackAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestCollectorOutageNeverBlocksAndRecoveryResumesWithGapReported(t *testing.T) {
	addr := freeLoopbackAddr(t)
	rt := startExport(t, "http://"+addr, Options{})
	// Collector down: the turn completes, deliveries fail and are counted.
	runTurn(rt)
	if err := rt.Flush(context.Background()); err != nil {
		t.Fatalf("flush during outage: %v", err)
	}
	down := sink(rt.Health(), "otlp.traces")
	if down.Dropped[DropDeliveryKO] == 0 || down.LastError != ErrConnRefused || down.State != "degraded" {
		t.Fatalf("outage not reported: %+v", down)
	}
	// Collector returns: new signals flow; the gap stays visible.
	rcv := newReceiverAt(t, addr)
	traceID := runTurn(rt)
	if err := rt.Flush(context.Background()); err != nil {
		t.Fatalf("flush after recovery: %v", err)
	}
	spans, _, logs, _ := rcv.snapshot()
	if len(spans) == 0 || len(logs) == 0 {
		t.Fatalf("after recovery spans=%d logs=%d", len(spans), len(logs))
	}
	// The outage and the gap are reported once, not per dropped record.
	rt.Flush(context.Background())
	_, _, logs, _ = rcv.snapshot()
	recovered := 0
	for _, l := range logs {
		if l.Body.GetStringValue() == "telemetry delivery recovered" {
			recovered++
			if v, ok := attrOf(l.Attributes, "dropped_total"); !ok || v.GetIntValue() == 0 {
				t.Errorf("recovery log without the gap: %v", l.Attributes)
			}
		}
	}
	if recovered == 0 || recovered > 3 {
		t.Errorf("recovery logs = %d, want one per recovered sink", recovered)
	}
	for _, s := range spans {
		if got := hexID(s.TraceId); got != traceID {
			t.Fatalf("old span replayed after recovery (trace %s)", got)
		}
	}
	up := sink(rt.Health(), "otlp.traces")
	if up.State != "ok" || up.Dropped[DropDeliveryKO] != down.Dropped[DropDeliveryKO] || !rt.Health().Gaps {
		t.Fatalf("after recovery health %+v (gaps=%v)", up, rt.Health().Gaps)
	}
	rt.Shutdown(context.Background())
}

func TestQueueSaturationStaysBoundedAndNeverBlocks(t *testing.T) {
	rcv := newReceiver(t)
	rcv.Hold() // the collector accepts connections but never answers
	rt := startExport(t, rcv.url(), Options{
		Export:          Export{QueueRecords: 8, QueueBytes: 64 << 10, Timeout: 30 * time.Second},
		ShutdownTimeout: 200 * time.Millisecond,
	})
	const n = 500
	done := make(chan struct{})
	go func() {
		for i := 0; i < n; i++ {
			_, s := rt.StartToolCall(context.Background(), "read_file", "op")
			s.End(OutcomeOK, nil)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("span production blocked behind a stalled collector")
	}
	s := sink(rt.Health(), "otlp.traces")
	if s.HighWater > 8 || s.Queued > 8 || s.QueuedBytes > 64<<10 {
		t.Fatalf("queue exceeded its bound: %+v", s)
	}
	if s.Dropped[DropQueueFull] == 0 || s.Accepted+s.Dropped[DropQueueFull] != n {
		t.Fatalf("drops not counted: accepted=%d dropped=%v of %d", s.Accepted, s.Dropped, n)
	}
	// Shutdown is bounded even though the collector never answers.
	if err := rt.Shutdown(context.Background()); err == nil {
		t.Log("shutdown finished within its deadline")
	}
	after := sink(rt.Health(), "otlp.traces")
	if after.Queued != 0 || after.Dropped[DropShutdown]+after.Dropped[DropDeliveryKO] == 0 {
		t.Fatalf("undelivered records not counted at shutdown: %+v", after)
	}
}

func TestOversizeArchiveRecordIsRefusedAndCounted(t *testing.T) {
	rt, _ := startArchive(t, Options{Archive: ArchiveLimits{MaxRecordBytes: 300}})
	_, s := rt.StartToolCall(context.Background(), "read_file", "op")
	s.End(OutcomeOK, nil)
	rt.Shutdown(context.Background())
	if got := sink(rt.Health(), "archive.traces"); got.Dropped[DropOversize] != 1 || got.Delivered != 0 {
		t.Fatalf("archive.traces = %+v", got)
	}
}

func TestEndpointPolicy(t *testing.T) {
	cases := []struct {
		ex Export
		ok bool
	}{
		{Export{Endpoint: "http://127.0.0.1:4318"}, true},
		{Export{Endpoint: "http://localhost:4318"}, true},
		{Export{Endpoint: "http://[::1]:4318"}, true},
		{Export{Endpoint: "https://collector.example:4318"}, true},
		{Export{Endpoint: "http://collector.example:4318"}, false},
		{Export{Endpoint: "http://collector.example:4318", TrustedInsecure: true}, true},
		{Export{Endpoint: "http://10.0.0.5:4318"}, false},
		{Export{Endpoint: "https://user:pw@collector.example"}, false},
		{Export{Endpoint: "https://collector.example/?token=x"}, false},
		{Export{Endpoint: "ftp://collector.example"}, false},
		{Export{Endpoint: ""}, false},
	}
	for _, c := range cases {
		c.ex.Enabled = true
		rt, err := Start(context.Background(), Options{Export: c.ex})
		rt.Shutdown(context.Background())
		if c.ok != (err == nil) {
			t.Errorf("%q trusted=%v: err = %v", c.ex.Endpoint, c.ex.TrustedInsecure, err)
		}
		if err != nil && core.CodeOf(err) != core.CodeInvalidConfiguration {
			t.Errorf("%q: code %s, want invalid_configuration", c.ex.Endpoint, core.CodeOf(err))
		}
	}
}

func hexID(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, len(b)*2)
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func TestArchiveTotalBoundDropsNewRecordsAndKeepsOld(t *testing.T) {
	rt, dir := startArchive(t, Options{Archive: ArchiveLimits{MaxTotalBytes: 4096}})
	for i := 0; i < 50; i++ {
		_, s := rt.StartToolCall(context.Background(), "read_file", "op")
		s.End(OutcomeOK, nil)
	}
	rt.Shutdown(context.Background())
	var total int64
	segs, _ := ListSegments(dir)
	for _, s := range segs {
		total += s.Bytes
	}
	got := sink(rt.Health(), "archive.traces")
	if total > 4096 || got.Dropped[DropArchiveFull] == 0 || got.Delivered == 0 {
		t.Fatalf("archive %d bytes, traces sink %+v", total, got)
	}
	// A later writer starts from the bytes already there.
	rt2, err := Start(context.Background(), Options{DriveDir: filepath.Dir(dir), Archive: ArchiveLimits{MaxTotalBytes: 4096}})
	if err != nil {
		t.Fatal(err)
	}
	_, s := rt2.StartToolCall(context.Background(), "read_file", "op")
	s.End(OutcomeOK, nil)
	rt2.Shutdown(context.Background())
	if sink(rt2.Health(), "archive.traces").Dropped[DropArchiveFull] != 1 {
		t.Fatalf("second writer ignored the existing archive size: %+v", sink(rt2.Health(), "archive.traces"))
	}
	if after, _ := ListSegments(dir); len(after) < len(segs) {
		t.Fatal("old segments were removed")
	}
}

func TestStalledCollectorCannotStarveTheLocalArchive(t *testing.T) {
	rcv := newReceiver(t)
	rcv.Hold()
	rt, dir := startArchive(t, Options{
		Export:          Export{Enabled: true, Endpoint: rcv.url(), Timeout: 30 * time.Second, MaxRetryElapsed: -1},
		ShutdownTimeout: 300 * time.Millisecond,
	})
	runTurn(rt)
	rt.Shutdown(context.Background())
	for _, name := range []string{"archive.traces", "archive.logs", "archive.metrics"} {
		if s := sink(rt.Health(), name); s.DroppedTotal() != 0 || s.Delivered == 0 {
			t.Errorf("%s starved by the stalled collector: %+v", name, s)
		}
	}
	recs, _ := readAll(t, dir)
	kinds := map[string]int{}
	for _, r := range recs {
		kinds[r.Type]++
	}
	if kinds[RecordSpan] == 0 || kinds[RecordLog] == 0 || kinds[RecordMetric] == 0 {
		segs, _ := ListSegments(dir)
		t.Fatalf("archive holds %v; segments %+v; health %+v", kinds, segs, sink(rt.Health(), "archive.metrics"))
	}
}

func TestOutageIsRecordedOnceInTheLocalArchive(t *testing.T) {
	rt, dir := startArchive(t, Options{Export: Export{Enabled: true, Endpoint: "http://" + freeLoopbackAddr(t), MaxRetryElapsed: -1}})
	for i := 0; i < 5; i++ {
		runTurn(rt)
		rt.Flush(context.Background())
	}
	rt.Shutdown(context.Background())
	recs, _ := readAll(t, dir)
	failing := map[string]int{}
	for _, r := range recs {
		if r.Type == RecordLog && r.Log.Body == "telemetry delivery failing" {
			failing[r.Attrs["sink"].(string)]++
			if r.Attrs["error"] != ErrConnRefused {
				t.Errorf("failing log error = %v", r.Attrs["error"])
			}
		}
	}
	if failing["otlp.traces"] != 1 || failing["otlp.logs"] != 1 {
		t.Fatalf("failure reports per sink = %v, want exactly one each", failing)
	}
}
