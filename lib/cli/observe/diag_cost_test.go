package observe

import (
	"bytes"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/observe"
)

func ptr(v float64) *float64 { return &v }

// A partial total is a lower bound; an unpriced one is unknown, never 0.
func TestPrintCostSaysPartialAndUnknown(t *testing.T) {
	var b bytes.Buffer
	printCost(&b, observe.Cost{Calls: 3, PricedCalls: 2, Amount: ptr(0.75), Currency: "USD", Provenance: []string{"a", "b"}})
	if !strings.Contains(b.String(), "at least 0.750000 USD") || !strings.Contains(b.String(), "partial: 1 of 3") {
		t.Fatalf("printed %q", b.String())
	}
	b.Reset()
	printCost(&b, observe.Cost{Calls: 1, Provenance: []string{}})
	if !strings.Contains(b.String(), "unknown") || strings.Contains(b.String(), "0.000000") {
		t.Fatalf("unpriced cost must be unknown, not zero: %q", b.String())
	}
}
