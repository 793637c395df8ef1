package telemetry

// Price is a model's configured token price in USD per million tokens
// (from .fluzo; never a built-in table). A nil *Price means no price is
// known, and then no cost is recorded: unknown cost is not zero.
type Price struct {
	InputPerMTok, OutputPerMTok float64
}

// Cost provenances (the fluzo.cost.provenance label).
const (
	// CostConfiguredPrice is a configured price times provider-reported usage.
	CostConfiguredPrice = "configured_price"
	// CostEstimatedUsage is a configured price times usage that was at
	// least partly the local estimate, because the provider reported none.
	CostEstimatedUsage = "estimated_usage"
)

// CostCurrency is the currency of configured prices.
const CostCurrency = "USD"

// EstimateCost prices one call's usage. Reported counts win; a missing
// reported count falls back to its local estimate and turns the
// provenance into estimated_usage. ok is false, and nothing may be
// recorded, when there is no price or a count is neither reported nor
// estimated.
func EstimateCost(p *Price, reportedIn, reportedOut, estimatedIn, estimatedOut *int64) (amount float64, provenance string, ok bool) {
	if p == nil {
		return 0, "", false
	}
	provenance = CostConfiguredPrice
	in, out := reportedIn, reportedOut
	if in == nil {
		in, provenance = estimatedIn, CostEstimatedUsage
	}
	if out == nil {
		out, provenance = estimatedOut, CostEstimatedUsage
	}
	if in == nil || out == nil {
		return 0, "", false
	}
	return (float64(*in)*p.InputPerMTok + float64(*out)*p.OutputPerMTok) / 1e6, provenance, true
}
