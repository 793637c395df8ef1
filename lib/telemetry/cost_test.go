package telemetry

import (
	"context"
	"math"
	"testing"
)

func TestEstimateCostProvenance(t *testing.T) {
	p := &Price{InputPerMTok: 3, OutputPerMTok: 15}
	cases := []struct {
		name                 string
		price                *Price
		rin, rout, ein, eout *int64
		amount               float64
		provenance           string
		ok                   bool
	}{
		{"reported usage", p, Tokens(1_000_000), Tokens(100_000), Tokens(5), Tokens(5), 4.5, CostConfiguredPrice, true},
		{"usage not reported", p, nil, nil, Tokens(2_000_000), Tokens(0), 6, CostEstimatedUsage, true},
		{"output not reported", p, Tokens(1_000_000), nil, Tokens(9), Tokens(1_000_000), 18, CostEstimatedUsage, true},
		{"no price", nil, Tokens(10), Tokens(10), nil, nil, 0, "", false},
		{"no usage at all", p, nil, nil, nil, nil, 0, "", false},
	}
	for _, c := range cases {
		amount, prov, ok := EstimateCost(c.price, c.rin, c.rout, c.ein, c.eout)
		if ok != c.ok || prov != c.provenance || math.Abs(amount-c.amount) > 1e-9 {
			t.Errorf("%s: got %v %q %v, want %v %q %v", c.name, amount, prov, ok, c.amount, c.provenance, c.ok)
		}
	}
}

// costPoints returns the fluzo.cost.estimated sums by provenance.
func costPoints(t *testing.T, dir string) map[string]float64 {
	t.Helper()
	recs, _ := readAll(t, dir)
	out := map[string]float64{}
	for _, r := range recs {
		if r.Type != RecordMetric || r.Metric.Name != MetricCost {
			continue
		}
		for _, pt := range r.Metric.Points {
			if pt.Attrs[LabelCurrency] != CostCurrency {
				t.Fatalf("cost without its currency: %v", pt.Attrs)
			}
			out[pt.Attrs[LabelProvenance].(string)] = *pt.Value
		}
	}
	return out
}

func TestChatCostIsRecordedWithProvenanceAndNeverAsZeroWhenUnknown(t *testing.T) {
	rt, dir := startArchive(t, Options{})
	price := &Price{InputPerMTok: 2, OutputPerMTok: 8}
	_, reported := rt.StartChat(context.Background(), ChatRequest{Provider: "p", Model: "m", Price: price})
	reported.Response(ChatResponse{InputTokens: Tokens(500_000), OutputTokens: Tokens(250_000)})
	reported.End(OutcomeOK, nil)
	_, estimated := rt.StartChat(context.Background(), ChatRequest{Provider: "p", Model: "m", Price: price})
	estimated.Response(ChatResponse{EstimatedInputTokens: Tokens(1_000_000), EstimatedOutputTokens: Tokens(125_000)})
	estimated.End(OutcomeOK, nil)
	_, unpriced := rt.StartChat(context.Background(), ChatRequest{Provider: "p", Model: "m"})
	unpriced.Response(ChatResponse{InputTokens: Tokens(7), OutputTokens: Tokens(7)})
	unpriced.End(OutcomeOK, nil)
	_, failed := rt.StartChat(context.Background(), ChatRequest{Provider: "p", Model: "m", Price: price})
	failed.End(OutcomeFailed, nil)
	rt.Shutdown(context.Background())

	got := costPoints(t, dir)
	want := map[string]float64{CostConfiguredPrice: 3, CostEstimatedUsage: 3}
	if len(got) != len(want) || math.Abs(got[CostConfiguredPrice]-3) > 1e-9 || math.Abs(got[CostEstimatedUsage]-3) > 1e-9 {
		t.Fatalf("cost by provenance = %v, want %v (unpriced and failed calls record nothing)", got, want)
	}
	recs, _ := readAll(t, dir)
	priced := 0
	for _, r := range recs {
		if r.Type != RecordSpan {
			continue
		}
		if v, ok := r.Attrs[MetricCost]; ok {
			priced++
			if r.Attrs[LabelProvenance] == nil || v.(float64) != 3 {
				t.Fatalf("span cost without provenance or wrong: %v", r.Attrs)
			}
		}
	}
	if priced != 2 {
		t.Fatalf("%d spans carry a cost, want 2 (an unknown cost is absent, not 0)", priced)
	}
}

func TestCostWithoutAnyPriceIsAbsentNotZero(t *testing.T) {
	rt, dir := startArchive(t, Options{})
	_, c := rt.StartChat(context.Background(), ChatRequest{Provider: "p", Model: "m"})
	c.Response(ChatResponse{InputTokens: Tokens(10), OutputTokens: Tokens(10)})
	c.End(OutcomeOK, nil)
	rt.Shutdown(context.Background())
	if got := costPoints(t, dir); len(got) != 0 {
		t.Fatalf("cost recorded without a price: %v", got)
	}
}
