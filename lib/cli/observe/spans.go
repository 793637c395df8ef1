package observe

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/observe"
	"github.com/josecorral/fluzo/lib/termsafe"
)

func printSpans(w io.Writer, rows []observe.Span) {
	fmt.Fprintf(w, "spans: %d\n", len(rows))
	var trace string
	var t0 time.Time
	for _, r := range rows {
		if r.Trace != trace {
			trace, t0 = r.Trace, r.Start
			fmt.Fprintf(w, "  trace %s\n", trace)
		}
		name := strings.Repeat("  ", r.Depth) + clean(r.Name, 60)
		fmt.Fprintf(w, "    +%9.1fms %9.1fms  %-44s %-8s %s\n", float64(r.Start.Sub(t0).Microseconds())/1000, r.DurationMS, name, r.Kind, termsafe.Line(r.StatusText()))
	}
}
