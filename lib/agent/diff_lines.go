package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/baseline"
)

// countedChange is a changed path with its line counts against what the
// path held when the task began. Added and Removed are nil when that is
// not known: the path already had user changes at baseline (only their
// fingerprint was kept, not their content), was reverted, is binary, or
// could not be read — unknown is never reported as 0.
type countedChange struct {
	baseline.Change
	Added   *int `json:"added,omitempty"`
	Removed *int `json:"removed,omitempty"`
}

// countedSummary is the diff summary the port and the diff.summary event
// carry: baseline's summary with counted changes.
type countedSummary struct {
	*baseline.Summary
	Changed []countedChange `json:"changed"`
}

// countLines is the one place the diff summary's line counts are made,
// for the live diff query and for the summary recorded at the end alike.
// The backend counts (the line_counts query): a path clean at baseline
// held HEAD-before's content, so git's numstat against it is the count;
// a new path git does not track there counts its lines as added. A
// backend that cannot answer leaves every count unknown.
func countLines(ctx context.Context, q querier, s *baseline.Summary) countedSummary {
	out := countedSummary{Summary: s, Changed: make([]countedChange, len(s.Changed))}
	args := tools.LineCountsArgs{Head: s.HeadBefore}
	for i, c := range s.Changed {
		out.Changed[i].Change = c
		if countable(c) {
			args.Paths = append(args.Paths, c.Path)
			if c.Kind == "added" {
				args.New = append(args.New, c.Path)
			}
		}
	}
	if len(args.Paths) == 0 {
		return out
	}
	var counts tools.LineCounts
	if q.Query(ctx, tools.QueryLineCounts, args, &counts) != nil {
		return out
	}
	for i := range out.Changed {
		c := &out.Changed[i]
		if !countable(c.Change) {
			continue
		}
		if n, ok := counts.Counts[c.Path]; ok {
			c.Added, c.Removed = n.Added, n.Removed
		}
	}
	return out
}

// countable: only a path clean at baseline has a known starting content.
func countable(c baseline.Change) bool {
	return !c.PreExisting && c.Kind != "reverted" && c.Before != baseline.Unreadable && c.After != baseline.Unreadable
}
