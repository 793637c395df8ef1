package agent

import (
	"context"
	"encoding/json"
	"os"

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
	return json.Marshal(baseline.Compare(b.before, after, touched))
}

func (b *workspaceBaseline) Close() error { return b.root.Close() }
