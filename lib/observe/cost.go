package observe

import (
	"slices"
	"sort"

	"github.com/josecorral/fluzo/lib/telemetry"
)

// Cost sums the estimated cost the archived GenAI spans of the task's
// traces carry. Calls without a configured price have no cost: the total
// is then unknown (Amount nil) or partial (Complete false), never zero.
type Cost struct {
	Calls       int      `json:"calls"`
	PricedCalls int      `json:"priced_calls"`
	Amount      *float64 `json:"amount"`
	Currency    string   `json:"currency,omitempty"`
	Provenance  []string `json:"provenance"`
	Complete    bool     `json:"complete"`
}

// addSpan counts one archived span if it is a GenAI call.
func (c *Cost) addSpan(r *telemetry.Record) {
	if _, ok := r.Attrs["gen_ai.operation.name"].(string); !ok || r.Kind != "client" {
		return
	}
	if _, tool := r.Attrs["gen_ai.tool.name"]; tool {
		return
	}
	c.Calls++
	amount, ok := r.Attrs[telemetry.MetricCost].(float64)
	if !ok {
		return
	}
	c.PricedCalls++
	sum := amount
	if c.Amount != nil {
		sum += *c.Amount
	}
	c.Amount = &sum
	if cur, ok := r.Attrs[telemetry.LabelCurrency].(string); ok {
		c.Currency = cur
	}
	if p, ok := r.Attrs[telemetry.LabelProvenance].(string); ok && !slices.Contains(c.Provenance, p) {
		c.Provenance = append(c.Provenance, p)
		sort.Strings(c.Provenance)
	}
}

func (c *Cost) finish() {
	c.Complete = c.Calls > 0 && c.PricedCalls == c.Calls
	if c.Provenance == nil {
		c.Provenance = []string{}
	}
}
