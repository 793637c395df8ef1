package agent

import (
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/telemetry/otlptest"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
)

func logsOnTrace(logs []*logspb.LogRecord, trace string) int {
	n := 0
	for _, l := range logs {
		if otlptest.HexID(l.TraceId) == trace {
			n++
		}
	}
	return n
}

// An attempt whose process died never ended its root span. After restart
// recovery marks it interrupted, telemetry says so in its own trace (a log
// record and an interrupted outcome), and the resumed attempt's trace
// carries a fluzo.attempt.recovered span linking back to it.
func TestCrashedAttemptIsReportedAfterRecoveryAndInTheResumedTrace(t *testing.T) {
	s, _ := openStore(t, map[string]string{"a.txt": "a"})
	tel, rcv := exportingTelemetry(t)
	ctx := context.Background()
	j := &storeJournal{S: s}
	r := &Runner{Journal: j, Telemetry: tel}
	refs, err := j.StartTask(ctx, taskStart{Request: "fix"})
	if err != nil {
		t.Fatal(err)
	}
	crashed := &run{Runner: r, refs: refs}
	actx, _ := crashed.traceAttempt(ctx, nil) // the process "dies": the root span is never ended
	if _, err := j.Record(actx, refs, "note", map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	_, lastSpan := telemetry.IDs(actx)
	rep, err := s.Recover(ctx)
	if err != nil || len(rep.Attempts) != 1 {
		t.Fatalf("recover: %+v %v", rep, err)
	}
	w := &Owner{Store: s, Telemetry: tel, Recovery: rep}
	w.reportRecovered(ctx, tel.RT)

	refs2, prior, err := j.resumeTask(ctx, refs.Task, nil)
	if err != nil {
		t.Fatal(err)
	}
	resumed := &run{Runner: r, refs: refs2}
	actx2, root2 := resumed.traceAttempt(ctx, &prior)
	resumed.endAttempt(actx2, root2, Result{Status: "completed"})
	tel.RT.Shutdown(ctx)

	spans, metrics, logs, _ := rcv.Snapshot()
	rec := spanNamed(spans, telemetry.SpanAttemptRecovered)
	if len(rec) != 1 {
		t.Fatalf("want one %s span, got %d", telemetry.SpanAttemptRecovered, len(rec))
	}
	sp := rec[0]
	if otlptest.HexID(sp.TraceId) != refs2.Trace {
		t.Fatalf("recovered span in trace %x, want the resumed attempt's %s", sp.TraceId, refs2.Trace)
	}
	if len(sp.Links) != 1 || otlptest.HexID(sp.Links[0].TraceId) != refs.Trace || otlptest.HexID(sp.Links[0].SpanId) != lastSpan {
		t.Fatalf("recovered span links %v, want trace %s span %s", sp.Links, refs.Trace, lastSpan)
	}
	if v, _ := otlptest.AttrOf(sp.Attributes, telemetry.LabelOutcome); v.GetStringValue() != telemetry.OutcomeInterrupted {
		t.Errorf("recovered span outcome %v", v)
	}
	if v, _ := otlptest.AttrOf(sp.Attributes, "fluzo.attempt.id"); v.GetStringValue() != refs.Attempt {
		t.Errorf("recovered span names attempt %v, want %s", v, refs.Attempt)
	}
	// Start log of the crashed attempt plus the recovery log, in its trace.
	if n := logsOnTrace(logs, refs.Trace); n < 2 {
		t.Errorf("%d logs on the crashed attempt's trace, want its start and the recovery record", n)
	}
	if n := logsOnTrace(logs, refs2.Trace); n < 3 {
		t.Errorf("%d logs on the resumed trace, want start, recovery note and end", n)
	}
	outcomes := metricNamed(metrics, telemetry.MetricTaskOutcomes)
	interrupted := false
	for _, dp := range outcomes.GetSum().GetDataPoints() {
		if v, _ := otlptest.AttrOf(dp.Attributes, telemetry.LabelOutcome); v.GetStringValue() == telemetry.OutcomeInterrupted && dp.GetAsInt() == 1 {
			interrupted = true
		}
	}
	if !interrupted {
		t.Errorf("no interrupted task outcome: %v", outcomes)
	}
}

// A resumed attempt whose predecessor ended normally gets no recovered span.
func TestResumeAfterAnEndedAttemptRecordsNoRecovery(t *testing.T) {
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
	if err := j.Finish(actx, refs, core.TaskFailed, core.AttemptFailed, "verification_failed"); err != nil {
		t.Fatal(err)
	}
	first.endAttempt(actx, root, Result{Status: string(core.CodeFailed)})
	refs2, prior, err := j.resumeTask(ctx, refs.Task, nil)
	if err != nil {
		t.Fatal(err)
	}
	second := &run{Runner: r, refs: refs2}
	actx2, root2 := second.traceAttempt(ctx, &prior)
	second.endAttempt(actx2, root2, Result{Status: "completed"})
	tel.RT.Shutdown(ctx)
	spans, _, _, _ := rcv.Snapshot()
	if n := len(spanNamed(spans, telemetry.SpanAttemptRecovered)); n != 0 {
		t.Fatalf("%d recovered spans after a normally ended attempt", n)
	}
}

// The agent prices each call with the configured price: reported usage
// gives configured_price, unreported usage the local estimate
// (estimated_usage); without a price nothing is recorded. Time to first
// output is its own metric, once per call.
func TestChatCostProvenanceAndFirstOutput(t *testing.T) {
	tel, rcv := exportingTelemetry(t)
	tel.Price = &telemetry.Price{InputPerMTok: 1_000_000, OutputPerMTok: 2_000_000} // $1 and $2 per token: exact sums
	model := simModel(t, `{"version":1,"models":["m"],"steps":[
		{"id":"reported","match":{"model":"m"},"respond":{"text":"done","usage":{"input":3,"output":2}}},
		{"id":"unreported","match":{"model":"m"},"respond":{"text":"done"}}]}`, 0)
	a := &run{Runner: &Runner{Model: model, ModelName: "m", Telemetry: tel}, refs: Refs{Session: "ses_x", Task: "tsk_x", Attempt: "att_x"}}
	for i := 0; i < 2; i++ {
		if _, err := a.complete(context.Background(), modelRequest{Purpose: purposeTurn, Messages: []message{{Role: roleUser, Content: "hi"}}, MaxTokens: 64}, nil); err != nil {
			t.Fatal(err)
		}
	}
	tel.RT.Shutdown(context.Background())
	_, metrics, _, _ := rcv.Snapshot()
	cost := metricNamed(metrics, telemetry.MetricCost)
	byProv := map[string]float64{}
	for _, dp := range cost.GetSum().GetDataPoints() {
		v, _ := otlptest.AttrOf(dp.Attributes, telemetry.LabelProvenance)
		byProv[v.GetStringValue()] = dp.GetAsDouble()
	}
	if byProv[telemetry.CostConfiguredPrice] != 7 || byProv[telemetry.CostEstimatedUsage] <= 0 || len(byProv) != 2 {
		t.Fatalf("cost by provenance %v, want configured_price 7 (3×1 + 2×2) and a positive estimated_usage", byProv)
	}
	first := metricNamed(metrics, telemetry.MetricFirstOutput)
	if first == nil || len(first.GetHistogram().GetDataPoints()) != 1 || first.GetHistogram().GetDataPoints()[0].GetCount() != 2 {
		t.Fatalf("%s: %v, want 2 observations", telemetry.MetricFirstOutput, first)
	}
	if bad := otlptest.ForbiddenLabels(metrics); len(bad) > 0 {
		t.Errorf("forbidden metric labels: %v", bad)
	}
}

// Restart markers are the client's, not model output: they start neither
// timer; a reasoning delta is meaningful output.
func TestFirstOutputIgnoresRestartMarkers(t *testing.T) {
	tel, rcv := exportingTelemetry(t)
	_, chat := tel.RT.StartChat(context.Background(), telemetry.ChatRequest{Provider: "p", Model: "m"})
	markFirstOutput(chat, liveDelta{Kind: "restart"})
	chat.End(telemetry.OutcomeFailed, nil)
	_, chat2 := tel.RT.StartChat(context.Background(), telemetry.ChatRequest{Provider: "p", Model: "m"})
	markFirstOutput(chat2, liveDelta{Kind: "reasoning", Text: "thinking"})
	markFirstOutput(chat2, liveDelta{Kind: "content", Text: "x"})
	chat2.End(telemetry.OutcomeOK, nil)
	tel.RT.Shutdown(context.Background())
	_, metrics, _, _ := rcv.Snapshot()
	for _, name := range []string{telemetry.MetricFirstOutput, telemetry.MetricFirstChunk} {
		m := metricNamed(metrics, name)
		if m == nil || m.GetHistogram().GetDataPoints()[0].GetCount() != 1 {
			t.Errorf("%s: %v, want exactly one observation (the reasoning delta)", name, m)
		}
	}
}
