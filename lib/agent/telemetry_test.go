package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/provider"
	"github.com/josecorral/fluzo/lib/provider/laya"
	"github.com/josecorral/fluzo/lib/sim"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/telemetry/otlptest"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// exportingTelemetry starts a telemetry runtime exporting to a fresh
// in-test OTLP/HTTP receiver on 127.0.0.1.
func exportingTelemetry(t *testing.T) (*Telemetry, *otlptest.Receiver) {
	t.Helper()
	rcv, err := otlptest.Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rcv.Close)
	rt, err := telemetry.Start(context.Background(), telemetry.Options{Component: "fluzo-agent",
		Export: telemetry.Export{Enabled: true, Endpoint: rcv.URL(), MaxRetryElapsed: -1, Timeout: 2 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Shutdown(context.Background()) })
	return &Telemetry{RT: rt, Provider: "openai_compatible", Pool: "local"}, rcv
}

// simModel serves scenario (JSON) and returns the provider-backed model
// with retries and no real backoff sleeps.
func simModel(t *testing.T, scenario string, retries int) *providerModel {
	t.Helper()
	sc, err := sim.Parse(t.Name(), []byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sim.Start(context.Background(), sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c, err := provider.New(provider.Endpoint{BaseURL: srv.BaseURL(), Retries: retries,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return &providerModel{Client: c, Name: "m"}
}

func spanNamed(spans []*tracepb.Span, name string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func intAttr(s *tracepb.Span, key string) int64 {
	v, _ := otlptest.AttrOf(s.Attributes, key)
	return v.GetIntValue()
}

func metricNamed(ms []*metricspb.Metric, name string) *metricspb.Metric {
	for _, m := range ms {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// A logical model call that the provider retried is one GenAI span with
// one child per physical HTTP attempt, the failed one marked with its
// status and class; the retry is counted; usage comes from the provider.
func TestChatSpanHasOneChildPerPhysicalProviderAttempt(t *testing.T) {
	tel, rcv := exportingTelemetry(t)
	model := simModel(t, `{"version":1,"models":["m"],"steps":[
		{"id":"transient","match":{"model":"m"},"respond":{"status":500}},
		{"id":"answer","match":{"model":"m"},"respond":{"text":"done","usage":{"input":42,"output":7}}}]}`, 2)
	a := &run{Runner: &Runner{Model: model, ModelName: "m", Telemetry: tel}, refs: Refs{Session: "ses_x", Task: "tsk_x", Attempt: "att_x"}}
	resp, err := a.complete(context.Background(), modelRequest{Purpose: purposeTurn, Messages: []message{{Role: roleUser, Content: "secret prompt"}}, MaxTokens: 64}, nil)
	if err != nil || resp.Content != "done" {
		t.Fatalf("complete: %+v %v", resp, err)
	}
	tel.RT.Shutdown(context.Background())
	spans, metrics, _, _ := rcv.Snapshot()
	chats := spanNamed(spans, "chat m")
	if len(chats) != 1 {
		t.Fatalf("want one chat span, got %d of %d spans", len(chats), len(spans))
	}
	chat := chats[0]
	for _, k := range []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.response.model", "gen_ai.response.finish_reasons"} {
		if _, ok := otlptest.AttrOf(chat.Attributes, k); !ok {
			t.Errorf("chat span lacks %s", k)
		}
	}
	if intAttr(chat, "gen_ai.usage.input_tokens") != 42 || intAttr(chat, "gen_ai.usage.output_tokens") != 7 {
		t.Errorf("usage %d/%d, want the provider's 42/7", intAttr(chat, "gen_ai.usage.input_tokens"), intAttr(chat, "gen_ai.usage.output_tokens"))
	}
	if v, _ := otlptest.AttrOf(chat.Attributes, "fluzo.inference.purpose"); v.GetStringValue() != telemetry.PurposeAgentTurn {
		t.Errorf("purpose = %v", v)
	}
	if _, ok := otlptest.AttrOf(chat.Attributes, "gen_ai.input.messages"); ok {
		t.Error("prompt content exported without capture_content")
	}
	attempts := spanNamed(spans, telemetry.SpanProviderAttempt)
	if len(attempts) != 2 {
		t.Fatalf("want 2 provider attempts, got %d", len(attempts))
	}
	for i, at := range attempts {
		if string(at.ParentSpanId) != string(chat.SpanId) {
			t.Errorf("attempt %d is not a child of the chat span", i+1)
		}
		if n := intAttr(at, "fluzo.provider.attempt"); n != int64(i+1) {
			t.Errorf("attempt %d numbered %d", i+1, n)
		}
	}
	if intAttr(attempts[0], "http.response.status_code") != 500 || attempts[0].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("first attempt: status %d, span status %v", intAttr(attempts[0], "http.response.status_code"), attempts[0].Status)
	}
	if attempts[1].Status.GetCode() != tracepb.Status_STATUS_CODE_OK {
		t.Errorf("second attempt span status %v", attempts[1].Status)
	}
	if attempts[0].EndTimeUnixNano > attempts[1].StartTimeUnixNano {
		t.Error("the retry starts before the first attempt ended")
	}
	retries := metricNamed(metrics, telemetry.MetricRetries)
	if retries == nil || retries.GetSum().GetDataPoints()[0].GetAsInt() != 1 {
		t.Fatalf("fluzo.retries: %v", retries)
	}
	if bad := otlptest.ForbiddenLabels(metrics); len(bad) > 0 {
		t.Errorf("forbidden metric labels: %v", bad)
	}
}

// A call that fails after its retries is an error GenAI span whose
// children are every physical attempt the provider error recorded.
func TestFailedChatSpanKeepsTheAttemptsOfTheProviderError(t *testing.T) {
	tel, rcv := exportingTelemetry(t)
	model := simModel(t, `{"version":1,"models":["m"],"steps":[
		{"id":"a","match":{"model":"m"},"respond":{"status":500}},
		{"id":"b","match":{"model":"m"},"respond":{"status":500}}]}`, 1)
	a := &run{Runner: &Runner{Model: model, ModelName: "m", Telemetry: tel}, refs: Refs{Session: "ses_x"}}
	if _, err := a.complete(context.Background(), modelRequest{Purpose: purposeCompaction, Messages: []message{{Role: roleUser, Content: "x"}}}, nil); err == nil {
		t.Fatal("the call succeeded")
	}
	tel.RT.Shutdown(context.Background())
	spans, _, _, _ := rcv.Snapshot()
	chats := spanNamed(spans, "chat m")
	if len(chats) != 1 || chats[0].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Fatalf("chat spans: %v", chats)
	}
	if v, _ := otlptest.AttrOf(chats[0].Attributes, "error.type"); v.GetStringValue() != string(core.CodeProviderError) {
		t.Errorf("error.type = %v", v)
	}
	if v, _ := otlptest.AttrOf(chats[0].Attributes, "fluzo.inference.purpose"); v.GetStringValue() != telemetry.PurposeCompaction {
		t.Errorf("purpose = %v", v)
	}
	if _, ok := otlptest.AttrOf(chats[0].Attributes, "gen_ai.usage.input_tokens"); ok {
		t.Error("a failed call reports usage it never got")
	}
	if n := len(spanNamed(spans, telemetry.SpanProviderAttempt)); n != 2 {
		t.Fatalf("want 2 provider attempts, got %d", n)
	}
}

// The attempt's root span adopts the trace the journal stored; events
// committed inside it carry its span ID; a resumed attempt is a new trace,
// numbered 2, linked to the previous attempt's span.
func TestAttemptSpansAdoptTheJournalTraceAndResumeLinksBack(t *testing.T) {
	s, _ := openStore(t, map[string]string{"a.txt": "a"})
	tel, rcv := exportingTelemetry(t)
	ctx := context.Background()
	j := &storeJournal{S: s}
	r := &Runner{Journal: j, Telemetry: tel}
	refs, err := j.StartTask(ctx, taskStart{Request: "fix"})
	if err != nil {
		t.Fatal(err)
	}
	first := &run{Runner: r, refs: refs}
	actx, root := first.traceAttempt(ctx, nil)
	ev, err := j.Record(actx, refs, "note", map[string]int{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	traceID, rootSpan := telemetry.IDs(actx)
	if traceID != refs.Trace || ev.Trace != refs.Trace || ev.Span != rootSpan || rootSpan == "" {
		t.Fatalf("trace %s span %s; refs.Trace %s; event trace %s span %s", traceID, rootSpan, refs.Trace, ev.Trace, ev.Span)
	}
	if err := j.Finish(actx, refs, core.TaskFailed, core.AttemptFailed, "verification_failed"); err != nil {
		t.Fatal(err)
	}
	first.endAttempt(actx, root, Result{Status: string(core.CodeFailed), Reason: "verification_failed"})

	refs2, prior, err := j.resumeTask(ctx, refs.Task, nil)
	if err != nil {
		t.Fatal(err)
	}
	second := &run{Runner: r, refs: refs2}
	actx2, root2 := second.traceAttempt(ctx, &prior)
	second.endAttempt(actx2, root2, Result{Status: "completed"})
	tel.RT.Shutdown(ctx)

	spans, _, logs, _ := rcv.Snapshot()
	roots := spanNamed(spans, telemetry.SpanAttempt)
	if len(roots) != 2 {
		t.Fatalf("want 2 attempt spans, got %d", len(roots))
	}
	resumed := roots[1]
	if otlptest.HexID(resumed.TraceId) != refs2.Trace || refs2.Trace == refs.Trace || len(resumed.ParentSpanId) != 0 {
		t.Fatalf("resumed attempt trace %x (want new trace %s), parent %x", resumed.TraceId, refs2.Trace, resumed.ParentSpanId)
	}
	if n := intAttr(resumed, "fluzo.attempt.number"); n != 2 {
		t.Errorf("resumed attempt number %d", n)
	}
	if len(resumed.Links) != 1 || otlptest.HexID(resumed.Links[0].TraceId) != refs.Trace || otlptest.HexID(resumed.Links[0].SpanId) != rootSpan {
		t.Fatalf("resumed attempt links %v, want trace %s span %s", resumed.Links, refs.Trace, rootSpan)
	}
	correlated := 0
	for _, l := range logs {
		if otlptest.HexID(l.TraceId) == refs.Trace {
			correlated++
		}
	}
	if correlated < 2 {
		t.Errorf("want start and end logs on trace %s, got %d", refs.Trace, correlated)
	}
	if _, err := s.GetAttempt(ctx, refs2.Attempt); err != nil {
		t.Fatal(err)
	}
}

// Without telemetry every wrapper still runs its step unchanged.
func TestNilTelemetryInstrumentsNothing(t *testing.T) {
	var tel *Telemetry
	if tel.runtime() != nil {
		t.Fatal("a nil Telemetry has a runtime")
	}
	a := &run{Runner: &Runner{}}
	ctx, root := a.traceAttempt(context.Background(), nil)
	if root != nil || ctx == nil {
		t.Fatal("a span without telemetry")
	}
	a.endAttempt(ctx, root, Result{Status: "completed"})
	if id := (&Owner{}).traceObservation(Refs{}, laya.Observation{Point: "task_end"}); id != "" {
		t.Fatalf("observation span %q without telemetry", id)
	}
}

// A shadow observation joins its attempt's trace even when it is answered
// after the root span ended, and its next_action answer is compared with
// the action taken (unlabelled agreement).
func TestLayaObservationJoinsTheAttemptTraceAndCountsAgreement(t *testing.T) {
	tel, rcv := exportingTelemetry(t)
	w := &Owner{Telemetry: tel}
	a := &run{Runner: &Runner{Telemetry: tel}, refs: Refs{Session: "ses_x", Task: "tsk_x", Attempt: "att_x", Trace: "0123456789abcdef0123456789abcdef"}}
	ctx, root := a.traceAttempt(context.Background(), nil)
	a.endAttempt(ctx, root, Result{Status: "completed"})
	answered := laya.Observation{Point: "task_end", Answers: json.RawMessage(`{"next_action":{"type":"choice","choice":"continue"}}`), LatencyMS: 20, ActionTaken: "continue"}
	id := w.traceObservation(a.refs, answered)
	w.traceObservation(a.refs, laya.Observation{Point: "task_start", Skipped: laya.SkipCapacity, ActionTaken: "continue"})
	tel.RT.Shutdown(context.Background())
	spans, metrics, _, _ := rcv.Snapshot()
	obs := spanNamed(spans, telemetry.SpanLayaObservation)
	if len(obs) != 2 {
		t.Fatalf("want 2 observation spans, got %d", len(obs))
	}
	_, rootSpan := telemetry.IDs(ctx)
	for _, s := range obs {
		if otlptest.HexID(s.TraceId) != a.refs.Trace || otlptest.HexID(s.ParentSpanId) != rootSpan {
			t.Errorf("observation span outside the attempt: trace %x parent %x", s.TraceId, s.ParentSpanId)
		}
	}
	if otlptest.HexID(obs[0].SpanId) != id {
		t.Errorf("returned span ID %s is not the observation's", id)
	}
	if d := obs[0].EndTimeUnixNano - obs[0].StartTimeUnixNano; d < uint64(20*time.Millisecond) {
		t.Errorf("observation span lasts %dns, not its 20ms latency", d)
	}
	agreement := metricNamed(metrics, telemetry.MetricLayaAgreement)
	if agreement == nil || len(agreement.GetSum().GetDataPoints()) != 1 {
		t.Fatalf("fluzo.laya.agreement: %v", agreement)
	}
	if v, _ := otlptest.AttrOf(agreement.GetSum().GetDataPoints()[0].Attributes, telemetry.LabelAgreement); v.GetStringValue() != "agree" {
		t.Errorf("agreement = %v", v)
	}
	if statuses := metricNamed(metrics, telemetry.MetricLayaObs); statuses == nil || len(statuses.GetSum().GetDataPoints()) != 2 {
		t.Errorf("fluzo.laya.observations by status: %v", statuses)
	}
}

// fixedApprover stands in for the person answering an approval prompt.
type fixedApprover struct{ d Decision }

func (f fixedApprover) Approve(context.Context, Refs, PendingApproval) (Decision, error) {
	return f.d, nil
}

// An approval is its own span with the user's verdict, and the verdict is
// counted as a permission outcome whose source is the user.
func TestApprovalIsASpanAndAUserPermissionOutcome(t *testing.T) {
	tel, rcv := exportingTelemetry(t)
	a := &run{Runner: &Runner{Telemetry: tel, Approver: fixedApprover{Decision{Verdict: verdictAllow, Rule: "user"}}}, refs: Refs{Task: "tsk_x"}}
	d, err := a.tracedApprove(context.Background(), PendingApproval{Operation: "op_x", Tool: "shell"})
	if err != nil || d.Verdict != verdictAllow {
		t.Fatalf("approve: %+v %v", d, err)
	}
	tel.RT.Shutdown(context.Background())
	spans, metrics, _, _ := rcv.Snapshot()
	ap := spanNamed(spans, telemetry.SpanApproval)
	if len(ap) != 1 {
		t.Fatalf("want one approval span, got %d", len(ap))
	}
	if v, _ := otlptest.AttrOf(ap[0].Attributes, telemetry.LabelOutcome); v.GetStringValue() != verdictAllow {
		t.Errorf("approval outcome %v", v)
	}
	perm := metricNamed(metrics, telemetry.MetricPermissions)
	if perm == nil {
		t.Fatal("no permission outcome metric")
	}
	p := perm.GetSum().GetDataPoints()[0]
	if v, _ := otlptest.AttrOf(p.Attributes, "fluzo.decision.source"); v.GetStringValue() != "user" {
		t.Errorf("permission source %v", v)
	}
	if metricNamed(metrics, telemetry.MetricDecisionLatency) == nil {
		t.Error("no decision latency for the approval")
	}
}
