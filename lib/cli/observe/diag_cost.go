package observe

import (
	"fmt"
	"io"
	"sort"

	"github.com/josecorral/fluzo/lib/telemetry"
)

// DiagCost sums the estimated cost the archived GenAI spans of the task's
// traces carry. Calls without a configured price have no cost: the total
// is then unknown (nil) or partial, never zero.
type DiagCost struct {
	Calls       int      `json:"calls"`
	PricedCalls int      `json:"priced_calls"`
	Amount      *float64 `json:"amount"`
	Currency    string   `json:"currency,omitempty"`
	Provenance  []string `json:"provenance"`
	Complete    bool     `json:"complete"`
}

// addSpan counts one archived span if it is a GenAI call.
func (c *DiagCost) addSpan(r *telemetry.Record) {
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
	if p, ok := r.Attrs[telemetry.LabelProvenance].(string); ok && !contains(c.Provenance, p) {
		c.Provenance = append(c.Provenance, p)
		sort.Strings(c.Provenance)
	}
}

func (c *DiagCost) finish() {
	c.Complete = c.Calls > 0 && c.PricedCalls == c.Calls
	if c.Provenance == nil {
		c.Provenance = []string{}
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func printCost(w io.Writer, c DiagCost) {
	switch {
	case c.Calls == 0:
		fmt.Fprintln(w, "estimated cost: unknown (no archived model calls)")
	case c.Amount == nil:
		fmt.Fprintf(w, "estimated cost: unknown (no configured price for %d model call(s); see models.<id>.input_price_per_mtok)\n", c.Calls)
	case !c.Complete:
		fmt.Fprintf(w, "estimated cost: at least %.6f %s (%v; partial: %d of %d call(s) unpriced)\n", *c.Amount, c.Currency, c.Provenance, c.Calls-c.PricedCalls, c.Calls)
	default:
		fmt.Fprintf(w, "estimated cost: %.6f %s (%v, %d call(s))\n", *c.Amount, c.Currency, c.Provenance, c.Calls)
	}
}
