package config

import (
	"strings"
	"testing"
)

const pricedModel = "schema_version = 1\n[agent]\nmodel = \"big\"\n[models.big]\nbase_url = \"https://h/v1\"\nmodel = \"m\"\n"

func TestPricingIsUnknownUntilBothPricesAreConfigured(t *testing.T) {
	for name, extra := range map[string]string{"none": "", "input only": "input_price_per_mtok = 3.0\n"} {
		cfg, err := Parse([]byte(pricedModel+extra), "f")
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := cfg.Pricing("big"); ok {
			t.Fatalf("%s: an unset price must be unknown, got %+v", name, p)
		}
	}
	cfg, err := Parse([]byte(pricedModel+"input_price_per_mtok = 3.0\noutput_price_per_mtok = 0\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := cfg.Pricing("big")
	if !ok || p.InputPerMTok != 3 || p.OutputPerMTok != 0 || p.Provenance != PricingProvenanceConfigured {
		t.Fatalf("configured prices (an explicit 0 is free, not unknown): %+v %v", p, ok)
	}
	if _, ok := cfg.Pricing("nope"); ok {
		t.Fatal("a missing model has no price")
	}
}

func TestPricingOverrideAndRangeDiagnostic(t *testing.T) {
	cfg, err := Parse([]byte(pricedModel), "f")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Override("models.big.input_price_per_mtok", "1.5"); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Override("models.big.output_price_per_mtok", "6"); err != nil {
		t.Fatal(err)
	}
	if p, ok := cfg.Pricing("big"); !ok || p.InputPerMTok != 1.5 || p.OutputPerMTok != 6 {
		t.Fatalf("CLI-configured prices: %+v %v", p, ok)
	}
	ds := diagnose(t, pricedModel+"input_price_per_mtok = -1.0\n")
	if len(ds) == 0 || ds[0].Key != "models.big.input_price_per_mtok" {
		t.Fatalf("a negative price must be a diagnostic on its key: %+v", ds)
	}
}

// Rendering must not turn an unset price into a configured zero.
func TestRenderedUnsetPriceStaysUnknown(t *testing.T) {
	text := Render(Defaults())
	if !strings.Contains(string(text), "# input_price_per_mtok = 0.0") {
		t.Fatalf("unset price should be rendered as a comment:\n%s", text)
	}
	cfg, err := Parse(text, "init")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range cfg.IDs("models") {
		if _, ok := cfg.Pricing(id); ok {
			t.Fatalf("model %s gained a price by rendering", id)
		}
	}
	priced, err := Parse([]byte(pricedModel+"input_price_per_mtok = 3.0\noutput_price_per_mtok = 15.0\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(Render(priced), "again")
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := again.Pricing("big"); !ok || p.OutputPerMTok != 15 {
		t.Fatalf("a configured price must survive rendering: %+v %v", p, ok)
	}
}
