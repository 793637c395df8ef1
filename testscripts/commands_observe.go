package testscripts

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/rogpeppe/go-internal/testscript"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Live telemetry writers started by telemetry-hold, per script.
var (
	heldMu sync.Mutex
	held   = map[*testscript.TestScript]*telemetry.Runtime{}
)

func init() {
	register("telemetry-emit", telemetryEmit)
	register("telemetry-hold", telemetryHold)
	register("telemetry-release", telemetryRelease)
}

// telemetry-emit WORKSPACE runs one instrumented attempt (a GenAI call, a
// tool call, a log line) into WORKSPACE/.fluzodrive and shuts down, as a
// short fluzo-agent run would.
func telemetryEmit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: telemetry-emit WORKSPACE")
	}
	rt := startRuntime(ts, args[0])
	ctx, att := rt.StartAttempt(context.Background(), telemetry.AttemptInfo{Session: "ses_script", Task: "tsk_script", Attempt: "att_script", Number: 1})
	_, chat := rt.StartChat(ctx, telemetry.ChatRequest{Provider: "fluzo_sim", Model: "sim-model", Purpose: telemetry.PurposeAgentTurn})
	chat.Response(telemetry.ChatResponse{Model: "sim-model", FinishReasons: []string{"stop"}, InputTokens: telemetry.Tokens(12), OutputTokens: telemetry.Tokens(3)})
	chat.End(telemetry.OutcomeOK, nil)
	tctx, tool := rt.StartToolCall(ctx, "read_file", "op_script")
	rt.Logger().InfoContext(tctx, "tool finished")
	tool.End(telemetry.OutcomeOK, nil)
	att.End("completed", nil)
	ts.Check(rt.Shutdown(context.Background()))
}

// telemetry-hold WORKSPACE keeps a telemetry writer open until
// telemetry-release (or the end of the script).
func telemetryHold(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: telemetry-hold WORKSPACE")
	}
	rt := startRuntime(ts, args[0])
	heldMu.Lock()
	held[ts] = rt
	heldMu.Unlock()
	ts.Defer(func() { releaseHeld(ts) })
}

func telemetryRelease(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: telemetry-release")
	}
	releaseHeld(ts)
}

func releaseHeld(ts *testscript.TestScript) {
	heldMu.Lock()
	rt := held[ts]
	delete(held, ts)
	heldMu.Unlock()
	rt.Shutdown(context.Background())
}

func startRuntime(ts *testscript.TestScript, ws string) *telemetry.Runtime {
	rt, err := telemetry.Start(context.Background(), telemetry.Options{
		DriveDir: filepath.Join(ts.MkAbs(ws), ".fluzodrive"), Component: "testscript",
	})
	ts.Check(err)
	return rt
}

func init() {
	register("history-fixture", historyFixture)
	register("history-drop-event", historyDropEvent)
}

// history-drop-event REPO TYPE deletes the first event of TYPE from the
// store behind the runtime's back, simulating a damaged history.
func historyDropEvent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: history-drop-event REPO TYPE")
	}
	ctx := context.Background()
	ws, err := store.ResolveWorkspace(ctx, ts.MkAbs(args[0]))
	ts.Check(err)
	s, err := store.Open(ctx, ws)
	ts.Check(err)
	defer s.Close()
	res, err := s.DB().ExecContext(ctx, "DELETE FROM events WHERE pos = (SELECT min(pos) FROM events WHERE type = ?)", args[1])
	ts.Check(err)
	if n, _ := res.RowsAffected(); n != 1 {
		ts.Fatalf("no %s event to drop", args[1])
	}
}

// history-fixture REPO writes a representative task history into the git
// repository REPO through the real store, the way the agent journals it:
// attempt 1 interrupted with an unknown operation, attempt 2 resuming it
// and completing with succeeded, failed and denied operations, provider
// requests with reported and unknown usage, a compaction, a budget event
// and a Laya observation. The matching telemetry is archived under the
// attempts' trace IDs. It sets $TASK, $TRACE1 and $TRACE2 for the script.
func historyFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: history-fixture REPO")
	}
	ctx := context.Background()
	ws, err := store.ResolveWorkspace(ctx, ts.MkAbs(args[0]))
	ts.Check(err)
	_, err = store.AddGitExclude(ctx, ws)
	ts.Check(err)
	s, err := store.Open(ctx, ws)
	ts.Check(err)
	defer s.Close()
	const trace1, trace2 = "0af7651916cd43dd8448eb211c80319c", "4bf92f3577b34da6a3ce929d0e0e4736"
	var task core.Task
	var att1, att2 core.Attempt
	ts.Check(s.Write(ctx, func(tx *store.Tx) error {
		sess := core.Session{Title: "fixture"}
		if _, err := tx.CreateSession(&sess); err != nil {
			return err
		}
		task = core.Task{SessionID: sess.ID, Request: "fix the failing test \x1b[31mnow\x1b[0m", Verify: "go test ./..."}
		if _, err := tx.CreateTask(&task); err != nil {
			return err
		}
		for _, st := range []core.TaskState{core.TaskReady, core.TaskRunning} {
			if _, _, err := tx.SetTaskState(task.ID, st, ""); err != nil {
				return err
			}
		}
		return nil
	}))
	// Attempt 1: one operation left unknown by a crash, then interrupted.
	ts.Check(s.Write(ctx, func(tx *store.Tx) error {
		tx.Meta.Trace = trace1
		att1 = core.Attempt{TaskID: task.ID, TraceID: trace1}
		if _, err := tx.StartAttempt(&att1); err != nil {
			return err
		}
		if err := fixtureRequest(tx, att1.ID, telemetry.Tokens(120), telemetry.Tokens(30)); err != nil {
			return err
		}
		if err := fixtureOp(tx, att1.ID, "run_command", core.OpUnknown); err != nil {
			return err
		}
		_, _, err := tx.EndAttempt(att1.ID, core.AttemptInterrupted, "restart")
		return err
	}))
	// Attempt 2 resumes it.
	ts.Check(s.Write(ctx, func(tx *store.Tx) error {
		tx.Meta.Trace = trace2
		att2 = core.Attempt{TaskID: task.ID, TraceID: trace2, PreviousID: att1.ID}
		if _, err := tx.StartAttempt(&att2); err != nil {
			return err
		}
		if err := fixtureRequest(tx, att2.ID, nil, nil); err != nil {
			return err
		}
		for tool, st := range map[string]core.OperationState{"read_file": core.OpSucceeded, "run_command": core.OpFailed, "write_file": core.OpDenied} {
			if err := fixtureOp(tx, att2.ID, tool, st); err != nil {
				return err
			}
		}
		before, after := int64(9000), int64(1200)
		if _, err := tx.AddCompaction(&store.Compaction{SessionID: task.SessionID, TaskID: task.ID, AttemptID: att2.ID, BeforeTokens: &before, AfterTokens: &after, Summary: "SECRET SUMMARY"}); err != nil {
			return err
		}
		for _, data := range []string{
			`{"point":"after_tool_result","fingerprint":"ab12cd34ef56ab12","questions":[{"type":"next_action","options":["continue","retry"]}],"answers":{"next_action":"retry"},"latency_ms":12,"action_taken":"continue","snapshot":"RAW STATE CONTENT"}`,
			`{"point":"after_tool_result","fingerprint":"9f8e7d6c5b4a3928","questions":[{"type":"next_action"}],"latency_ms":0,"skipped":"no_shadow_slot","action_taken":"continue"}`,
		} {
			if _, err := tx.AddObservation(&store.Observation{SessionID: task.SessionID, TaskID: task.ID, AttemptID: att2.ID, Kind: "next_action", Data: []byte(data)}); err != nil {
				return err
			}
		}
		if _, err := tx.Append(core.Event{Type: core.EvBudget, Session: task.SessionID, Task: task.ID, Attempt: att2.ID, Data: []byte(`{"budget":"tokens","limit":50000,"charged":1500}`)}); err != nil {
			return err
		}
		if _, err := tx.Append(core.Event{Type: core.EvVerification, Session: task.SessionID, Task: task.ID, Attempt: att2.ID, Data: []byte(`{"completed":true,"verification":"passed"}`)}); err != nil {
			return err
		}
		if _, _, err := tx.EndAttempt(att2.ID, core.AttemptCompleted, ""); err != nil {
			return err
		}
		_, _, err := tx.SetTaskState(task.ID, core.TaskCompleted, "")
		return err
	}))
	fixtureTelemetry(ts, ws.Drive(), task, att1, att2)
	ts.Setenv("TASK", task.ID)
	ts.Setenv("TRACE1", trace1)
	ts.Setenv("TRACE2", trace2)
}

func fixtureRequest(tx *store.Tx, attempt string, in, out *int64) error {
	p := core.ProviderRequest{AttemptID: attempt, Purpose: "turn", Model: "sim-model"}
	if _, err := tx.CreateProviderRequest(&p); err != nil {
		return err
	}
	if _, _, err := tx.SetProviderRequestState(p.ID, core.SlotDispatched, nil); err != nil {
		return err
	}
	_, _, err := tx.SetProviderRequestState(p.ID, core.SlotCompleted, &store.Usage{InputTokens: in, OutputTokens: out, Source: "provider"})
	return err
}

// fixtureOp walks an operation through the journal's states to final.
func fixtureOp(tx *store.Tx, attempt, tool string, final core.OperationState) error {
	o := core.Operation{AttemptID: attempt, Tool: tool, Args: []byte(`{"secret":"ARGUMENT CONTENT"}`)}
	if _, err := tx.CreateOperation(&o); err != nil {
		return err
	}
	path := []core.OperationState{core.OpAuthorized, core.OpIntentCommitted, core.OpDispatched, final}
	if final == core.OpDenied {
		path = []core.OperationState{core.OpDenied}
	}
	for _, st := range path {
		u := store.OperationUpdate{}
		if st == core.OpAuthorized {
			u = store.OperationUpdate{Decision: "allow", Rule: "default_allow_read"}
		}
		if st == core.OpDenied {
			u = store.OperationUpdate{Decision: "deny", Rule: "protected_path"}
		}
		if _, _, err := tx.SetOperationState(o.ID, st, u); err != nil {
			return err
		}
	}
	return nil
}

// fixtureTelemetry archives the spans and logs the agent would have emitted
// for the two attempts, under the same trace IDs.
func fixtureTelemetry(ts *testscript.TestScript, drive string, task core.Task, att1, att2 core.Attempt) {
	rt, err := telemetry.Start(context.Background(), telemetry.Options{DriveDir: drive, Component: "fluzo-agent"})
	ts.Check(err)
	ctx1, a1 := rt.StartAttempt(context.Background(), telemetry.AttemptInfo{Session: task.SessionID, Task: task.ID, Attempt: att1.ID, Number: 1, TraceID: att1.TraceID})
	_, op := rt.StartToolCall(ctx1, "run_command", "op")
	op.End(telemetry.OutcomeUnknown, nil)
	tr1, sp1 := telemetry.IDs(ctx1)
	a1.End("interrupted", core.Errorf(core.CodeInterrupted, "restart"))
	ctx2, a2 := rt.StartAttempt(context.Background(), telemetry.AttemptInfo{Session: task.SessionID, Task: task.ID, Attempt: att2.ID, Number: 2,
		TraceID: att2.TraceID, PreviousTrace: tr1, PreviousSpan: sp1})
	_, chat := rt.StartChat(ctx2, telemetry.ChatRequest{Provider: "fluzo_sim", Model: "sim-model"})
	chat.End(telemetry.OutcomeOK, nil)
	tctx, tool := rt.StartToolCall(ctx2, "run_command", "op")
	rt.Logger().WarnContext(tctx, "command failed", "exit", 1)
	tool.End(telemetry.OutcomeFailed, core.Errorf(core.CodeFailed, "exit 1"))
	a2.End("completed", nil)
	ts.Check(rt.Shutdown(context.Background()))
}

func init() {
	register("otlp-receiver", otlpReceiver)
	register("otlp-received", otlpReceived)
}

// scriptReceiver is a loopback OTLP/HTTP receiver that decodes protobuf
// payloads and counts items per signal.
type scriptReceiver struct {
	mu     sync.Mutex
	counts map[string]int
	names  map[string]bool
}

var (
	receiversMu sync.Mutex
	receivers   = map[*testscript.TestScript]*scriptReceiver{}
)

// otlp-receiver starts a receiver on 127.0.0.1 and sets $OTLP to its URL;
// otlp-receiver redirect starts one that redirects every request to the
// first receiver (whose hits are then counted as contacts).
func otlpReceiver(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: otlp-receiver [redirect]")
	}
	if len(args) == 1 {
		target := ts.Getenv("OTLP")
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
		}))
		ts.Defer(srv.Close)
		ts.Setenv("OTLP_REDIRECT", srv.URL)
		return
	}
	rc := &scriptReceiver{counts: map[string]int{}, names: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(rc.serve))
	ts.Defer(srv.Close)
	receiversMu.Lock()
	receivers[ts] = rc
	receiversMu.Unlock()
	ts.Defer(func() {
		receiversMu.Lock()
		delete(receivers, ts)
		receiversMu.Unlock()
	})
	ts.Setenv("OTLP", srv.URL)
}

func (rc *scriptReceiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.counts["requests"]++
	switch r.URL.Path {
	case "/v1/traces":
		var m coltrace.ExportTraceServiceRequest
		if proto.Unmarshal(body, &m) == nil {
			for _, rs := range m.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					for _, s := range ss.Spans {
						rc.counts["spans"]++
						rc.names[s.Name] = true
					}
				}
			}
		}
	case "/v1/metrics":
		var m colmetrics.ExportMetricsServiceRequest
		if proto.Unmarshal(body, &m) == nil {
			for _, rm := range m.ResourceMetrics {
				for _, sm := range rm.ScopeMetrics {
					for _, x := range sm.Metrics {
						rc.counts["metrics"]++
						rc.names[x.Name] = true
					}
				}
			}
		}
	case "/v1/logs":
		var m collogs.ExportLogsServiceRequest
		if proto.Unmarshal(body, &m) == nil {
			for _, rl := range m.ResourceLogs {
				for _, sl := range rl.ScopeLogs {
					for _, l := range sl.LogRecords {
						if len(l.TraceId) == 16 {
							rc.counts["correlated_logs"]++
						}
						rc.counts["logs"]++
					}
				}
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
}

// otlp-received KIND N asserts the receiver counted exactly N items of
// KIND (requests, spans, metrics, logs, correlated_logs), or, with a name,
// otlp-received name NAME asserts a span or metric of that name arrived.
func otlpReceived(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: otlp-received KIND N | otlp-received name NAME")
	}
	receiversMu.Lock()
	rc := receivers[ts]
	receiversMu.Unlock()
	if rc == nil {
		ts.Fatalf("no otlp-receiver running")
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if args[0] == "name" {
		if rc.names[args[1]] == neg {
			ts.Fatalf("name %s received = %v", args[1], rc.names[args[1]])
		}
		return
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	if (rc.counts[args[0]] == want) == neg {
		ts.Fatalf("%s = %d, want %d (neg=%v)", args[0], rc.counts[args[0]], want, neg)
	}
}
