package observe

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/termsafe"
)

// SpanRow is one archived span of a task, for diag --spans.
type SpanRow struct {
	Trace      string    `json:"trace"`
	Span       string    `json:"span"`
	Parent     string    `json:"parent,omitempty"`
	Name       string    `json:"name"`
	Kind       string    `json:"kind"`
	Start      time.Time `json:"start"`
	DurationMS float64   `json:"duration_ms"`
	Status     string    `json:"status"`
	Outcome    string    `json:"outcome,omitempty"`
	Depth      int       `json:"depth"`
}

// archivedSpans reads the spans of the given traces from the archive and
// orders them as trees: by trace, then parent before children by start.
func archivedSpans(drive string, traces []string) ([]SpanRow, error) {
	want := map[string]bool{}
	for _, t := range traces {
		want[t] = true
	}
	var rows []SpanRow
	_, err := telemetry.ScanArchive(filepath.Join(drive, telemetry.ArchiveDirName), func(r *telemetry.Record) bool {
		if r.Type != telemetry.RecordSpan || !want[r.Trace] || r.Start == nil {
			return true
		}
		row := SpanRow{Trace: r.Trace, Span: r.Span, Parent: r.Parent, Name: r.Name, Kind: r.Kind, Start: r.Start.UTC(), Status: r.Status}
		if r.DurationMS != nil {
			row.DurationMS = *r.DurationMS
		}
		if o, ok := r.Attrs["fluzo.outcome"].(string); ok {
			row.Outcome = o
		}
		rows = append(rows, row)
		return true
	})
	return treeOrder(rows), err
}

// treeOrder lays spans out depth-first; a span whose parent is not in the
// archive (dropped, or in another process) is shown as a root.
func treeOrder(rows []SpanRow) []SpanRow {
	byID := map[string]bool{}
	children := map[string][]SpanRow{}
	for _, r := range rows {
		byID[r.Trace+"/"+r.Span] = true
	}
	var roots []SpanRow
	for _, r := range rows {
		if r.Parent != "" && byID[r.Trace+"/"+r.Parent] {
			children[r.Trace+"/"+r.Parent] = append(children[r.Trace+"/"+r.Parent], r)
		} else {
			roots = append(roots, r)
		}
	}
	byStart := func(s []SpanRow) {
		sort.SliceStable(s, func(i, j int) bool { return s[i].Start.Before(s[j].Start) })
	}
	byStart(roots)
	var out []SpanRow
	var walk func(r SpanRow, depth int)
	walk = func(r SpanRow, depth int) {
		r.Depth = depth
		out = append(out, r)
		kids := children[r.Trace+"/"+r.Span]
		byStart(kids)
		for _, k := range kids {
			walk(k, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	return out
}

func printSpans(w io.Writer, rows []SpanRow) {
	fmt.Fprintf(w, "spans: %d\n", len(rows))
	var trace string
	var t0 time.Time
	for _, r := range rows {
		if r.Trace != trace {
			trace, t0 = r.Trace, r.Start
			fmt.Fprintf(w, "  trace %s\n", trace)
		}
		name := strings.Repeat("  ", r.Depth) + clean(r.Name, 60)
		fmt.Fprintf(w, "    +%9.1fms %9.1fms  %-44s %-8s %s\n", float64(r.Start.Sub(t0).Microseconds())/1000, r.DurationMS, name, r.Kind, statusText(r))
	}
}

func statusText(r SpanRow) string {
	if r.Outcome == "" || r.Outcome == r.Status {
		return termsafe.Line(r.Status)
	}
	return termsafe.Line(r.Status + " " + r.Outcome)
}
