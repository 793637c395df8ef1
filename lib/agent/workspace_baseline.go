package agent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/baseline"
)

// querier asks the tool backend read-only questions about the workspace:
// the runtime reads the workspace only through it (Tools.Query).
type querier interface {
	Query(ctx context.Context, name string, args, out any) error
}

// workspaceBaseline is the state of the working tree when a task began:
// which paths already had user changes (they need approval to touch and
// are never discarded) and what the diff summary compares against. It
// is the backend's tree, read through its queries.
type workspaceBaseline struct {
	q      querier
	before *baseline.Snapshot
	pre    map[string]bool
}

func captureBaseline(ctx context.Context, q querier) (*workspaceBaseline, error) {
	var snap baseline.Snapshot
	if err := q.Query(ctx, tools.QueryBaseline, nil, &snap); err != nil {
		return nil, err
	}
	b := &workspaceBaseline{q: q, before: &snap, pre: map[string]bool{}}
	for _, e := range snap.Entries {
		b.pre[e.Path] = true
	}
	return b, nil
}

// Preexisting reports whether path had user changes at baseline.
func (b *workspaceBaseline) Preexisting(path string) bool { return b.pre[path] }

// Diff compares the working tree now with the baseline.
func (b *workspaceBaseline) Diff(ctx context.Context, touched []string) (json.RawMessage, error) {
	var after baseline.Snapshot
	if err := b.q.Query(ctx, tools.QueryBaseline, nil, &after); err != nil {
		return nil, err
	}
	if touched == nil {
		touched = []string{}
	}
	s := relabelChanges(baseline.Compare(b.before, &after, touched), &after)
	return json.Marshal(countLines(ctx, b.q, s))
}

// relabelChanges replaces baseline's kind, which is relative to the
// baseline ("changed" means clean when the task began, whether the task
// created, edited or deleted the file), with what happened to the file: "added" (untracked or
// newly staged), "deleted", "modified", or "reverted" (changed at baseline,
// clean now). Whether the path already had user changes stays in
// pre_existing.
func relabelChanges(s *baseline.Summary, after *baseline.Snapshot) *baseline.Summary {
	status := map[string]string{}
	for _, e := range after.Entries {
		status[e.Path] = e.Status
	}
	for i := range s.Changed {
		c := &s.Changed[i]
		if c.Kind == "reverted" {
			continue
		}
		st := status[c.Path]
		switch {
		case st == "??" || strings.HasPrefix(st, "A"):
			c.Kind = "added"
		case strings.Contains(st, "D"):
			c.Kind = "deleted"
		default:
			c.Kind = "modified"
		}
	}
	return s
}

func (b *workspaceBaseline) Close() error { return nil }
