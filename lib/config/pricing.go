package config

import (
	"fmt"
	"strings"
)

// Pricing is a model's configured token prices, in USD per million
// tokens. It feeds estimated-cost telemetry only: with no configured
// price, cost is unknown (never zero).
type Pricing struct {
	InputPerMTok, OutputPerMTok float64
	// Provenance is "configured": the numbers come from .fluzo or a CLI
	// override, never from a built-in table.
	Provenance string
}

// PricingProvenanceConfigured marks prices the user configured.
const PricingProvenanceConfigured = "configured"

// Pricing returns models.<id>'s configured prices; ok is false when the
// entry does not exist or either price was left unset (a default value
// is "not configured", not "free"). An explicit 0 is a configured price.
func (c *Config) Pricing(id string) (Pricing, bool) {
	if !c.hasEntry("models", id) {
		return Pricing{}, false
	}
	in, out := "models."+id+".input_price_per_mtok", "models."+id+".output_price_per_mtok"
	if c.Source(in) == SourceDefault || c.Source(out) == SourceDefault {
		return Pricing{}, false
	}
	return Pricing{InputPerMTok: c.Float(in), OutputPerMTok: c.Float(out), Provenance: PricingProvenanceConfigured}, true
}

func isPrice(field string) bool {
	return field == "input_price_per_mtok" || field == "output_price_per_mtok"
}

// renderUnsetPrice writes an unset price as a comment: writing its
// default (0) would turn "no price" into "free" on the next load.
func renderUnsetPrice(b *strings.Builder, s Setting) {
	if !strings.HasSuffix(b.String(), "]\n") {
		b.WriteString("\n")
	}
	for _, line := range wrap(s.Description, 76) {
		fmt.Fprintf(b, "# %s\n", line)
	}
	fmt.Fprintf(b, "# unit: %s; valid: %s; unset by default\n", s.Unit, s.ValidRange())
	fmt.Fprintf(b, "# %s = 0.0\n", tomlKey(s.Name()))
}
