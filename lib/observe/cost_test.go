package observe

import (
	"testing"

	"github.com/josecorral/fluzo/lib/telemetry"
)

func chatSpan(attrs map[string]any) *telemetry.Record {
	a := map[string]any{"gen_ai.operation.name": "chat"}
	for k, v := range attrs {
		a[k] = v
	}
	return &telemetry.Record{Type: telemetry.RecordSpan, Kind: "client", Attrs: a}
}

// Some priced and some unpriced calls give a partial lower bound; tool
// and provider-attempt spans are not model calls.
func TestDiagCostIsPartialWhenSomeCallsAreUnpriced(t *testing.T) {
	var c Cost
	c.addSpan(chatSpan(map[string]any{telemetry.MetricCost: 0.5, telemetry.LabelProvenance: telemetry.CostConfiguredPrice, telemetry.LabelCurrency: "USD"}))
	c.addSpan(chatSpan(map[string]any{telemetry.MetricCost: 0.25, telemetry.LabelProvenance: telemetry.CostEstimatedUsage, telemetry.LabelCurrency: "USD"}))
	c.addSpan(chatSpan(nil))
	c.addSpan(&telemetry.Record{Type: telemetry.RecordSpan, Kind: "internal", Attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "exec"}})
	c.addSpan(&telemetry.Record{Type: telemetry.RecordSpan, Kind: "client", Attrs: map[string]any{"fluzo.provider.attempt": 1.0}})
	c.finish()
	if c.Calls != 3 || c.PricedCalls != 2 || c.Amount == nil || *c.Amount != 0.75 || c.Complete || len(c.Provenance) != 2 {
		t.Fatalf("cost %+v", c)
	}
	var none Cost
	none.addSpan(chatSpan(nil))
	none.finish()
	if none.Amount != nil || none.Complete || none.Calls != 1 {
		t.Fatalf("unpriced cost must be unknown, not zero: %+v", none)
	}
	var empty Cost
	empty.finish()
	if empty.Amount != nil || empty.Complete || empty.Provenance == nil {
		t.Fatalf("no calls: %+v", empty)
	}
}
