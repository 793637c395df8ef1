package observe

import (
	"fmt"
	"io"

	"github.com/josecorral/fluzo/lib/observe"
)

func printCost(w io.Writer, c observe.Cost) {
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
