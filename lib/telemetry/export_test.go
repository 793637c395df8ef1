package telemetry

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

func startExport(t *testing.T, endpoint string, o Options) *Runtime {
	t.Helper()
	o.Export.Enabled = true
	o.Export.Endpoint = endpoint
	if o.Export.MaxRetryElapsed == 0 {
		o.Export.MaxRetryElapsed = -1
	}
	if o.Export.Timeout == 0 {
		o.Export.Timeout = 2 * time.Second
	}
	rt, err := Start(context.Background(), o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return rt
}

// runTurn emits one representative attempt: a GenAI call, a tool call, a
// policy check, a permission outcome and a correlated log.
func runTurn(rt *Runtime) (traceID string) {
	ctx, att := rt.StartAttempt(context.Background(), AttemptInfo{Session: "ses_secret", Task: "tsk_x", Attempt: "att_x", Number: 1})
	cctx, chat := rt.StartChat(ctx, ChatRequest{Provider: "llama_swap", Model: "flash-halogen", Purpose: PurposeAgentTurn, Stream: true})
	_, p := rt.StartProviderAttempt(cctx, 1)
	chat.FirstChunk()
	p.End(OutcomeOK, nil)
	chat.Response(ChatResponse{Model: "flash-halogen-q4", FinishReasons: []string{"tool_calls"}, InputTokens: Tokens(100), OutputTokens: Tokens(20), CacheReadTokens: Tokens(40)})
	chat.Content("PROMPT TEXT", "ANSWER TEXT")
	chat.End(OutcomeOK, nil)
	_, pol := rt.StartPolicyCheck(ctx, "run_command")
	pol.End("allow", nil)
	rt.Metrics().Permission(ctx, "allowed", "policy")
	tctx, tool := rt.StartToolCall(ctx, "run_command", "op_1")
	rt.Logger().InfoContext(tctx, "tool finished", "exit", 0)
	tool.End(OutcomeFailed, core.Errorf(core.CodeFailed, "exit 1 in /home/user/secret/path"))
	traceID, _ = IDs(ctx)
	att.End("completed", nil)
	return traceID
}

func TestOTLPExportDeliversAllSignalsWithConventions(t *testing.T) {
	rcv := newReceiver(t)
	rt := startExport(t, rcv.url(), Options{Export: Export{Headers: map[string]string{"X-Token": "t0k"}}})
	traceID := runTurn(rt)
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	spans, metrics, logs, _ := rcv.snapshot()

	byName := map[string]*tracepb.Span{}
	for _, s := range spans {
		byName[s.Name] = s
		if hex.EncodeToString(s.TraceId) != traceID {
			t.Errorf("span %s in another trace", s.Name)
		}
	}
	chat := byName["chat flash-halogen"]
	if chat == nil || chat.Kind != tracepb.Span_SPAN_KIND_CLIENT {
		t.Fatalf("GenAI span missing or wrong kind; spans: %v", keys(byName))
	}
	want := map[string]string{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "llama_swap", "gen_ai.request.model": "flash-halogen", "gen_ai.response.model": "flash-halogen-q4"}
	for k, v := range want {
		if got, ok := attrOf(chat.Attributes, k); !ok || got.GetStringValue() != v {
			t.Errorf("%s = %v, want %q", k, got, v)
		}
	}
	for k, v := range map[string]int64{"gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 20, "gen_ai.usage.cache_read.input_tokens": 40} {
		if got, ok := attrOf(chat.Attributes, k); !ok || got.GetIntValue() != v {
			t.Errorf("%s = %v, want int %d", k, got, v)
		}
	}
	if fr, ok := attrOf(chat.Attributes, "gen_ai.response.finish_reasons"); !ok || fr.GetArrayValue().GetValues()[0].GetStringValue() != "tool_calls" {
		t.Errorf("finish_reasons = %v", fr)
	}
	for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.usage.reasoning.output_tokens"} {
		if _, ok := attrOf(chat.Attributes, k); ok {
			t.Errorf("%s present by default (content or unreported usage)", k)
		}
	}
	if pa := byName[SpanProviderAttempt]; pa == nil || hex.EncodeToString(pa.ParentSpanId) != hex.EncodeToString(chat.SpanId) {
		t.Error("provider attempt is not a child of the GenAI span")
	}
	tool := byName["execute_tool run_command"]
	if tool == nil || tool.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || strings.Contains(tool.Status.GetMessage(), "/home") {
		t.Fatalf("tool span %v: want error status without the error text", tool)
	}
	if et, _ := attrOf(tool.Attributes, "error.type"); et.GetStringValue() != "failed" {
		t.Errorf("tool error.type = %v", et)
	}
	if pol := byName[SpanPolicyCheck]; pol == nil || pol.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
		t.Error("policy check span missing or marked as an error")
	}
	if root := byName[SpanAttempt]; root == nil || len(root.ParentSpanId) != 0 {
		t.Error("attempt span is not a root")
	}

	if len(logs) != 1 || hex.EncodeToString(logs[0].TraceId) != traceID || hex.EncodeToString(logs[0].SpanId) != hex.EncodeToString(tool.SpanId) {
		t.Fatalf("log not correlated with the tool span: %v", logs)
	}

	units := map[string]string{MetricGenAIDuration: "s", MetricGenAITokens: "{token}", MetricTaskOutcomes: "{attempt}", MetricToolDuration: "s", MetricPermissions: "{decision}", MetricTelemetryDrops: "{record}", MetricDecisionLatency: "s", MetricFirstChunk: "s"}
	seen := map[string]bool{}
	forbidden := []string{"fluzo.session.id", "fluzo.task.id", "fluzo.attempt.id", "fluzo.operation.id", "gen_ai.conversation.id", "trace_id", "error.message", "path"}
	for _, m := range metrics {
		seen[m.Name] = true
		if u, ok := units[m.Name]; ok && m.Unit != u {
			t.Errorf("metric %s unit %q, want %q", m.Name, m.Unit, u)
		}
		ks := metricAttrKeys(m)
		for _, f := range forbidden {
			if ks[f] {
				t.Errorf("metric %s carries forbidden label %s", m.Name, f)
			}
		}
		if m.Name == MetricGenAITokens && (!ks["gen_ai.token.type"] || !ks["gen_ai.request.model"] || !ks["gen_ai.provider.name"]) {
			t.Errorf("token usage labels = %v", ks)
		}
	}
	for name := range units {
		if !seen[name] {
			t.Errorf("metric %s not exported", name)
		}
	}
	hdr := rcv.Header().Get("X-Token")
	if hdr != "t0k" {
		t.Errorf("configured header not sent (got %q)", hdr)
	}
	h := rt.Health()
	for _, s := range h.Sinks {
		if s.Delivered == 0 || s.DroppedTotal() != 0 {
			t.Errorf("sink %s: %+v", s.Name, s)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestOTELEnvironmentNeverChangesDestinationOrHeaders(t *testing.T) {
	ours, decoy := newReceiver(t), newReceiver(t)
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"} {
		t.Setenv(k, decoy.url())
	}
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "X-Injected=leak")
	t.Setenv("OTEL_SERVICE_NAME", "not-fluzo")
	t.Setenv("HTTP_PROXY", decoy.url())
	rt := startExport(t, ours.url(), Options{})
	runTurn(rt)
	rt.Shutdown(context.Background())
	spans, metrics, logs, _ := ours.snapshot()
	if len(spans) == 0 || len(metrics) == 0 || len(logs) == 0 {
		t.Fatalf("configured collector got spans=%d metrics=%d logs=%d", len(spans), len(metrics), len(logs))
	}
	if _, _, _, hits := decoy.snapshot(); hits != 0 {
		t.Fatalf("OTEL_* environment redirected %d requests to another collector", hits)
	}
	if ours.Header().Get("X-Injected") != "" {
		t.Fatal("OTEL_EXPORTER_OTLP_HEADERS added a header")
	}
}
