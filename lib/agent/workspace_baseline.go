package agent

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/josecorral/fluzo/lib/tools/baseline"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/proc"
)

// workspaceBaseline is the state of the working tree when a task began:
// which paths already had user changes (they need approval to touch and
// are never discarded) and what the diff summary compares against.
type workspaceBaseline struct {
	root   *confine.Root
	env    []string
	before *baseline.Snapshot
	pre    map[string]bool
}

func captureBaseline(ctx context.Context, dir string) (*workspaceBaseline, error) {
	root, err := confine.Open(dir, "")
	if err != nil {
		return nil, err
	}
	env, err := proc.Build(os.Environ(), proc.EnvPolicy{}, nil)
	if err != nil {
		root.Close()
		return nil, err
	}
	snap, err := baseline.Capture(ctx, root, env)
	if err != nil {
		root.Close()
		return nil, err
	}
	b := &workspaceBaseline{root: root, env: env, before: snap, pre: map[string]bool{}}
	for _, e := range snap.Entries {
		b.pre[e.Path] = true
	}
	return b, nil
}

// Preexisting reports whether path had user changes at baseline.
func (b *workspaceBaseline) Preexisting(path string) bool { return b.pre[path] }

// Diff compares the working tree now with the baseline.
func (b *workspaceBaseline) Diff(ctx context.Context, touched []string) (json.RawMessage, error) {
	after, err := baseline.Capture(ctx, b.root, b.env)
	if err != nil {
		return nil, err
	}
	if touched == nil {
		touched = []string{}
	}
	s := relabelChanges(baseline.Compare(b.before, after, touched), after)
	return json.Marshal(countLines(ctx, b.root, b.env, s))
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

func (b *workspaceBaseline) Close() error { return b.root.Close() }
