package observe

import (
	"bytes"
	"strings"
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
	var c DiagCost
	c.addSpan(chatSpan(map[string]any{telemetry.MetricCost: 0.5, telemetry.LabelProvenance: telemetry.CostConfiguredPrice, telemetry.LabelCurrency: "USD"}))
	c.addSpan(chatSpan(map[string]any{telemetry.MetricCost: 0.25, telemetry.LabelProvenance: telemetry.CostEstimatedUsage, telemetry.LabelCurrency: "USD"}))
	c.addSpan(chatSpan(nil))
	c.addSpan(&telemetry.Record{Type: telemetry.RecordSpan, Kind: "internal", Attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "exec"}})
	c.addSpan(&telemetry.Record{Type: telemetry.RecordSpan, Kind: "client", Attrs: map[string]any{"fluzo.provider.attempt": 1.0}})
	c.finish()
	if c.Calls != 3 || c.PricedCalls != 2 || c.Amount == nil || *c.Amount != 0.75 || c.Complete || len(c.Provenance) != 2 {
		t.Fatalf("cost %+v", c)
	}
	var b bytes.Buffer
	printCost(&b, c)
	if !strings.Contains(b.String(), "at least 0.750000 USD") || !strings.Contains(b.String(), "partial: 1 of 3") {
		t.Fatalf("printed %q", b.String())
	}
	var none DiagCost
	none.addSpan(chatSpan(nil))
	none.finish()
	b.Reset()
	printCost(&b, none)
	if none.Amount != nil || !strings.Contains(b.String(), "unknown") || strings.Contains(b.String(), "0.000000") {
		t.Fatalf("unpriced cost must be unknown, not zero: %+v %q", none, b.String())
	}
}
