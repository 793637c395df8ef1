package agent

import (
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/telemetry/otlptest"
)

// An attempt's end status drives the cancellation and budget-exhaustion
// metrics (with bounded labels) and the task outcome.
func TestAttemptEndCountsCancellationsAndBudgetExhaustion(t *testing.T) {
	tel, rcv := exportingTelemetry(t)
	for i, res := range []Result{
		{Status: string(core.CodeCancelled), Reason: "user"},
		{Status: string(core.CodeBudgetExhausted), Reason: "max_turns"},
		{Status: string(core.CodeBudgetExhausted), Reason: "max_tool_calls"},
	} {
		a := &run{Runner: &Runner{Telemetry: tel}, refs: Refs{Session: "ses_x", Task: "tsk_x", Attempt: "att_" + string(rune('a'+i))}}
		ctx, root := a.traceAttempt(context.Background(), nil)
		a.endAttempt(ctx, root, res)
	}
	tel.RT.Shutdown(context.Background())
	_, metrics, _, _ := rcv.Snapshot()
	count := func(name, label string) map[string]int64 {
		out := map[string]int64{}
		m := metricNamed(metrics, name)
		for _, dp := range m.GetSum().GetDataPoints() {
			v, _ := otlptest.AttrOf(dp.Attributes, label)
			out[v.GetStringValue()] += dp.GetAsInt()
		}
		return out
	}
	if got := count(telemetry.MetricCancellations, telemetry.LabelPhase); got["task"] != 1 || len(got) != 1 {
		t.Errorf("%s = %v, want task:1", telemetry.MetricCancellations, got)
	}
	if got := count(telemetry.MetricBudgetExhausted, telemetry.LabelBudget); got["turns"] != 1 || got["tool_calls"] != 1 || len(got) != 2 {
		t.Errorf("%s = %v, want turns:1 tool_calls:1", telemetry.MetricBudgetExhausted, got)
	}
	if got := count(telemetry.MetricTaskOutcomes, telemetry.LabelOutcome); got[string(core.CodeCancelled)] != 1 || got[string(core.CodeBudgetExhausted)] != 2 {
		t.Errorf("%s = %v", telemetry.MetricTaskOutcomes, got)
	}
	if bad := otlptest.ForbiddenLabels(metrics); len(bad) > 0 {
		t.Errorf("forbidden metric labels: %v", bad)
	}
}
