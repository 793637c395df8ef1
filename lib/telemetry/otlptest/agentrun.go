package otlptest

import (
	"fmt"
	"sort"
	"strings"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// AgentRun is what one instrumented agent attempt must have exported.
type AgentRun struct {
	// Trace is the attempt's trace ID as the store and the result record
	// have it.
	Trace string
	// Tools are tool names that must each have an "execute_tool {tool}" span.
	Tools []string
	// EventSpans are the span IDs stamped on the task's persisted events
	// (from fluzo-store events): each must be a span of the trace.
	EventSpans []string
	// Metrics are instrument names that must have arrived.
	Metrics []string
}

// CheckAgentRun returns every way the received telemetry falls short of
// want: one fluzo.attempt root span on want.Trace; turn, context,
// admission, policy, verification spans; GenAI "chat {model}" client
// spans with gen_ai.* usage and provider-attempt children; execute_tool
// spans; no captured content; events' spans in the trace; the metrics,
// none with a forbidden label; and logs carrying the trace ID.
func (r *Receiver) CheckAgentRun(want AgentRun) []string {
	all, metrics, logs, _ := r.Snapshot()
	spans := SpansOfTrace(all, want.Trace)
	var bad []string
	fail := func(f string, a ...any) { bad = append(bad, fmt.Sprintf(f, a...)) }
	byID := map[string]*tracepb.Span{}
	count := map[string]int{}
	for _, s := range spans {
		byID[HexID(s.SpanId)] = s
		count[s.Name]++
		for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages"} {
			if _, ok := AttrOf(s.Attributes, k); ok {
				fail("span %s carries content (%s) without capture_content", s.Name, k)
			}
		}
	}
	roots := 0
	for _, s := range spans {
		if s.Name == "fluzo.attempt" && len(s.ParentSpanId) == 0 {
			roots++
		}
	}
	if roots != 1 {
		fail("want one root fluzo.attempt span in trace %s, got %d (spans by name: %v)", want.Trace, roots, names(count))
	}
	for _, n := range []string{"fluzo.turn", "fluzo.context.build", "fluzo.admission", "fluzo.policy.check", "fluzo.verification", "fluzo.provider.attempt"} {
		if count[n] == 0 {
			fail("no %s span in trace %s", n, want.Trace)
		}
	}
	for _, tool := range want.Tools {
		if count["execute_tool "+tool] == 0 {
			fail("no execute_tool %s span (spans: %v)", tool, names(count))
		}
	}
	bad = append(bad, checkChats(spans, byID)...)
	for _, id := range want.EventSpans {
		if byID[id] == nil {
			fail("an event carries span %s, which is not a span of trace %s", id, want.Trace)
		}
	}
	got := map[string]bool{}
	for _, m := range metrics {
		got[m.Name] = true
	}
	for _, n := range want.Metrics {
		if !got[n] {
			fail("metric %s did not arrive", n)
		}
	}
	for _, f := range ForbiddenLabels(metrics) {
		fail("forbidden metric label %s", f)
	}
	correlated := 0
	for _, l := range logs {
		if HexID(l.TraceId) == want.Trace && byID[HexID(l.SpanId)] != nil {
			correlated++
		}
	}
	if correlated == 0 {
		fail("no log record carries trace %s and one of its span IDs (%d logs)", want.Trace, len(logs))
	}
	return bad
}

// checkChats requires at least one GenAI client span with the pinned
// attributes and reported usage, each parented in the trace, and every
// provider attempt a child of a chat span.
func checkChats(spans []*tracepb.Span, byID map[string]*tracepb.Span) []string {
	var bad []string
	chats := 0
	for _, s := range spans {
		switch {
		case strings.HasPrefix(s.Name, "chat "):
			chats++
			if s.Kind != tracepb.Span_SPAN_KIND_CLIENT {
				bad = append(bad, s.Name+" is not a CLIENT span")
			}
			for _, k := range []string{"gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.request.model", "gen_ai.response.model",
				"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.response.finish_reasons", "fluzo.inference.purpose"} {
				if _, ok := AttrOf(s.Attributes, k); !ok {
					bad = append(bad, fmt.Sprintf("%s lacks %s", s.Name, k))
				}
			}
			if byID[HexID(s.ParentSpanId)] == nil {
				bad = append(bad, s.Name+" has no parent in the trace")
			}
		case s.Name == "fluzo.provider.attempt":
			if p := byID[HexID(s.ParentSpanId)]; p == nil || !strings.HasPrefix(p.Name, "chat ") {
				bad = append(bad, "a fluzo.provider.attempt span is not a child of a chat span")
			}
		}
	}
	if chats == 0 {
		bad = append(bad, "no GenAI chat span")
	}
	return bad
}

func names(count map[string]int) []string {
	var out []string
	for n, c := range count {
		out = append(out, fmt.Sprintf("%s×%d", n, c))
	}
	sort.Strings(out)
	return out
}
