package observe

import (
	"path/filepath"
	"sort"
	"time"

	"github.com/josecorral/fluzo/lib/telemetry"
)

// Span is one archived span of a task, placed in its trace's tree.
type Span struct {
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

// StatusText is the span's status, with the Fluzo outcome when it says
// more.
func (s Span) StatusText() string {
	if s.Outcome == "" || s.Outcome == s.Status {
		return s.Status
	}
	return s.Status + " " + s.Outcome
}

// ArchivedSpans reads the spans of the given traces from the workspace's
// telemetry archive (drive is its .fluzodrive) and orders them as trees:
// by trace, then parent before children by start. The spans read before
// an archive error are returned with it.
func ArchivedSpans(drive string, traces []string) ([]Span, error) {
	want := map[string]bool{}
	for _, t := range traces {
		want[t] = true
	}
	var rows []Span
	_, err := telemetry.ScanArchive(filepath.Join(drive, telemetry.ArchiveDirName), func(r *telemetry.Record) bool {
		if r.Type != telemetry.RecordSpan || !want[r.Trace] || r.Start == nil {
			return true
		}
		row := Span{Trace: r.Trace, Span: r.Span, Parent: r.Parent, Name: r.Name, Kind: r.Kind, Start: r.Start.UTC(), Status: r.Status}
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
func treeOrder(rows []Span) []Span {
	byID := map[string]bool{}
	children := map[string][]Span{}
	for _, r := range rows {
		byID[r.Trace+"/"+r.Span] = true
	}
	var roots []Span
	for _, r := range rows {
		if r.Parent != "" && byID[r.Trace+"/"+r.Parent] {
			children[r.Trace+"/"+r.Parent] = append(children[r.Trace+"/"+r.Parent], r)
		} else {
			roots = append(roots, r)
		}
	}
	byStart := func(s []Span) {
		sort.SliceStable(s, func(i, j int) bool { return s[i].Start.Before(s[j].Start) })
	}
	byStart(roots)
	var out []Span
	var walk func(r Span, depth int)
	walk = func(r Span, depth int) {
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
