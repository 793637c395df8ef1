package agent

import (
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/tools"
)

// Instructions is one AGENTS.md file and the subtree it governs.
type Instructions struct {
	Path      string // slash path relative to the workspace root
	Scope     string // directory it applies to, "." for the whole workspace
	Content   string
	Truncated bool
}

// Applies reports whether the instructions govern the workspace path p.
func (in Instructions) Applies(p string) bool {
	p = path.Clean(strings.TrimPrefix(filepath.ToSlash(p), "./"))
	return in.Scope == "." || p == in.Scope || strings.HasPrefix(p, in.Scope+"/")
}

// DiscoverInstructions asks the backend for the AGENTS.md files git would
// show (tracked, or untracked and not ignored), outermost first, so that
// nested files — which refine their subtree — come after the ones they
// refine. The backend reads them beneath its confinement (no symlink
// followed, no special file opened) and bounds their number and size.
func DiscoverInstructions(ctx context.Context, q querier) ([]Instructions, error) {
	var got tools.AgentsMD
	if err := q.Query(ctx, tools.QueryAgentsMD, nil, &got); err != nil {
		return nil, err
	}
	return instructionsFrom(got), nil
}

// ApplicableTo returns the instructions that govern path p, outermost
// first.
func ApplicableTo(all []Instructions, p string) []Instructions {
	var out []Instructions
	for _, in := range all {
		if in.Applies(p) {
			out = append(out, in)
		}
	}
	return out
}
