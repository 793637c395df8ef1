package telemetry

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func startArchive(t *testing.T, o Options) (*Runtime, string) {
	t.Helper()
	drive := filepath.Join(t.TempDir(), ".fluzodrive")
	if err := os.Mkdir(drive, 0o700); err != nil {
		t.Fatal(err)
	}
	o.DriveDir = drive
	o.Component = "test"
	rt, err := Start(context.Background(), o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return rt, filepath.Join(drive, ArchiveDirName)
}

func readAll(t *testing.T, dir string) ([]*Record, ScanStats) {
	t.Helper()
	var out []*Record
	st, err := ScanArchive(dir, func(r *Record) bool { out = append(out, r); return true })
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	return out, st
}

func TestArchiveRecordsAllThreeSignalsCorrelated(t *testing.T) {
	rt, dir := startArchive(t, Options{})
	ctx, att := rt.StartAttempt(context.Background(), AttemptInfo{Session: "ses_1", Task: "tsk_1", Attempt: "att_1", Number: 1})
	cctx, chat := rt.StartChat(ctx, ChatRequest{Provider: "llama_swap", Model: "flash", Purpose: PurposeAgentTurn, Stream: true})
	chat.FirstChunk()
	chat.Response(ChatResponse{Model: "flash-q4", FinishReasons: []string{"stop"}, InputTokens: Tokens(100), OutputTokens: Tokens(20)})
	chat.End(OutcomeOK, nil)
	rt.Logger().InfoContext(cctx, "model answered", "turn", 1)
	traceID, _ := IDs(ctx)
	att.End("completed", nil)
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}

	recs, st := readAll(t, dir)
	if st.Incomplete != 0 || st.Malformed != 0 {
		t.Fatalf("scan stats %+v", st)
	}
	var spans, logs int
	metrics := map[string]bool{}
	for _, r := range recs {
		if r.V != ArchiveVersion || r.Resource["service.name"] != "fluzo" || r.Resource["fluzo.component"] != "test" {
			t.Fatalf("record without version/resource identity: %+v", r)
		}
		switch r.Type {
		case RecordSpan:
			spans++
			if r.Trace != traceID {
				t.Errorf("span %s in trace %s, want %s", r.Name, r.Trace, traceID)
			}
			if r.Name == "chat flash" {
				if r.Kind != "client" || r.Attrs["gen_ai.usage.input_tokens"] != float64(100) || r.Attrs["gen_ai.response.model"] != "flash-q4" {
					t.Errorf("chat span = %+v", r)
				}
				if _, ok := r.Attrs["gen_ai.input.messages"]; ok {
					t.Error("content captured by default")
				}
			}
		case RecordLog:
			logs++
			if r.Trace != traceID || r.Span == "" || r.Log.Body != "model answered" {
				t.Errorf("log not correlated: %+v", r)
			}
		case RecordMetric:
			metrics[r.Metric.Name] = true
		}
	}
	if spans != 2 || logs != 1 {
		t.Errorf("spans=%d logs=%d, want 2 and 1", spans, logs)
	}
	for _, name := range []string{MetricGenAIDuration, MetricGenAITokens, MetricTaskOutcomes, MetricFirstChunk, MetricTelemetryDrops} {
		if !metrics[name] {
			t.Errorf("metric %s missing from archive (have %v)", name, metrics)
		}
	}
	h, err := ReadHealthSnapshot(dir)
	if err != nil || len(h.Sinks) != 3 || h.State != "ok" {
		t.Fatalf("health snapshot %+v, %v", h, err)
	}
}

func TestNilRuntimeIsANoOp(t *testing.T) {
	var rt *Runtime
	ctx, att := rt.StartAttempt(context.Background(), AttemptInfo{Task: "t"})
	_, chat := rt.StartChat(ctx, ChatRequest{Model: "m"})
	chat.FirstChunk()
	chat.Response(ChatResponse{InputTokens: Tokens(1)})
	chat.End(OutcomeOK, nil)
	_, tool := rt.StartToolCall(ctx, "read_file", "op")
	tool.SetAttributes()
	tool.End(OutcomeFailed, errors.New("x"))
	att.End("failed", nil)
	rt.Metrics().Permission(ctx, "allowed", "policy")
	rt.Logger().Info("discarded")
	if tr, sp := IDs(ctx); tr != "" || sp != "" {
		t.Fatalf("nil runtime produced ids %q %q", tr, sp)
	}
	if h := rt.Health(); h.State != "disabled" {
		t.Fatalf("nil health = %+v", h)
	}
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestResumedAttemptIsNewTraceLinkedToPrevious(t *testing.T) {
	rt, dir := startArchive(t, Options{})
	ctx1, a1 := rt.StartAttempt(context.Background(), AttemptInfo{Task: "t", Attempt: "a1", Number: 1})
	prevTrace, prevSpan := IDs(ctx1)
	a1.End(OutcomeFailed, core.Errorf(core.CodeInterrupted, "interrupted"))
	ctx2, a2 := rt.StartAttempt(ctx1, AttemptInfo{Task: "t", Attempt: "a2", Number: 2, PreviousTrace: prevTrace, PreviousSpan: prevSpan})
	newTrace, _ := IDs(ctx2)
	a2.End("completed", nil)
	rt.Shutdown(context.Background())
	if newTrace == prevTrace {
		t.Fatal("resumed attempt reused the previous trace")
	}
	recs, _ := readAll(t, dir)
	found := false
	for _, r := range recs {
		if r.Type == RecordSpan && r.Attrs["fluzo.attempt.id"] == "a2" {
			found = len(r.Links) == 1 && r.Links[0].Trace == prevTrace && r.Links[0].Span == prevSpan && r.Parent == ""
		}
		if r.Type == RecordSpan && r.Attrs["fluzo.attempt.id"] == "a1" && r.Attrs["error.type"] != "interrupted" {
			t.Errorf("a1 error.type = %v", r.Attrs["error.type"])
		}
	}
	if !found {
		t.Fatal("resumed attempt span has no link to the previous attempt")
	}
}

func TestAttemptUsesThePersistedTraceID(t *testing.T) {
	rt, _ := startArchive(t, Options{})
	defer rt.Shutdown(context.Background())
	const want = "4bf92f3577b34da6a3ce929d0e0e4736"
	ctx, att := rt.StartAttempt(context.Background(), AttemptInfo{Task: "t", TraceID: want})
	_, child := rt.StartTurn(ctx, 1)
	got, _ := child.IDs()
	child.End(OutcomeOK, nil)
	att.End("completed", nil)
	if got != want {
		t.Fatalf("trace = %s, want the persisted %s", got, want)
	}
	ctx2, att2 := rt.StartAttempt(ctx, AttemptInfo{Task: "t", TraceID: "not-hex"})
	if tr, _ := IDs(ctx2); tr == want || tr == "" {
		t.Fatalf("invalid requested trace ID gave %q", tr)
	}
	att2.End("completed", nil)
}

func TestSegmentsRotateBySizeAndNeverOverwrite(t *testing.T) {
	rt, dir := startArchive(t, Options{Archive: ArchiveLimits{SegmentBytes: 2048}})
	for i := 0; i < 60; i++ {
		_, s := rt.StartToolCall(context.Background(), "read_file", "op")
		s.End(OutcomeOK, nil)
	}
	rt.Shutdown(context.Background())
	segs, err := ListSegments(dir)
	if err != nil {
		t.Fatal(err)
	}
	traces := 0
	for _, s := range segs {
		if s.Signal == "traces" {
			traces++
			if s.Bytes > 2048+1024 {
				t.Errorf("segment %s has %d bytes", s.Path, s.Bytes)
			}
		}
	}
	recs, _ := readAll(t, dir)
	spans := 0
	for _, r := range recs {
		if r.Type == RecordSpan {
			spans++
		}
	}
	if traces < 2 || spans != 60 {
		t.Fatalf("trace segments=%d spans=%d, want rotation and all 60 spans kept", traces, spans)
	}
}

func TestIncompleteTrailingRecordIsReportedNotRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "traces-20260101T000000Z-1-0001.jsonl")
	content := `{"v":1,"type":"span","ts":"2026-01-01T00:00:00Z","resource":{},"name":"a"}` + "\n" + `{"v":1,"type":"sp`
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, st := readAll(t, dir)
	if len(recs) != 1 || st.Incomplete != 1 {
		t.Fatalf("records=%d stats=%+v", len(recs), st)
	}
	if b, _ := os.ReadFile(p); !strings.HasSuffix(string(b), `"type":"sp`) {
		t.Fatal("reader modified the segment")
	}
}

func TestMissingDriveIsNotCreated(t *testing.T) {
	drive := filepath.Join(t.TempDir(), ".fluzodrive")
	_, err := Start(context.Background(), Options{DriveDir: drive})
	if core.CodeOf(err) != core.CodeStorageError {
		t.Fatalf("err = %v, want storage_error", err)
	}
	if _, err := os.Stat(drive); !os.IsNotExist(err) {
		t.Fatal("telemetry created the workspace state directory")
	}
}

func TestArchiveDirSymlinkRefused(t *testing.T) {
	drive := filepath.Join(t.TempDir(), ".fluzodrive")
	os.Mkdir(drive, 0o700)
	os.Symlink(t.TempDir(), filepath.Join(drive, ArchiveDirName))
	_, err := Start(context.Background(), Options{DriveDir: drive})
	if core.CodeOf(err) != core.CodeStorageError {
		t.Fatalf("err = %v, want storage_error", err)
	}
}

func TestEndingTwiceCountsUsageOnce(t *testing.T) {
	rt, dir := startArchive(t, Options{})
	_, chat := rt.StartChat(context.Background(), ChatRequest{Provider: "p", Model: "m"})
	chat.Response(ChatResponse{InputTokens: Tokens(10), OutputTokens: Tokens(2)})
	chat.End(OutcomeOK, nil)
	chat.End(OutcomeOK, nil)
	rt.Shutdown(context.Background())
	recs, _ := readAll(t, dir)
	for _, r := range recs {
		if r.Type == RecordMetric && r.Metric.Name == MetricGenAITokens {
			for _, p := range r.Metric.Points {
				if *p.Count != 1 {
					t.Fatalf("token usage recorded %d times for %v", *p.Count, p.Attrs)
				}
			}
			return
		}
	}
	t.Fatal("no token usage metric")
}
