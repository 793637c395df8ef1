package storecli

import (
	"context"
	"fmt"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/worktree"
	"github.com/urfave/cli/v3"
)

// worktreesRecord is the JSON line a purge prints about task worktrees.
type worktreesRecord struct {
	Worktrees []worktree.Abandoned `json:"worktrees"`
}

// plannedWorktrees lists the worktrees a purge of plan would remove: those
// already abandoned and those whose session it purges.
func plannedWorktrees(ctx context.Context, s *store.Store, plan store.PurgePlan) ([]worktree.Abandoned, error) {
	purging := map[string]bool{}
	for _, ps := range plan.Sessions {
		if ps.Refused == "" {
			purging[ps.ID] = true
		}
	}
	return worktree.FindAbandoned(ctx, s.Queries, s.Workspace().Root, purging)
}

// sweepWorktrees removes the abandoned worktrees after the sessions were
// purged. It holds the workspace's owner lock while it does: a running
// owner may be editing one, so while it runs abandoned worktrees are left
// (workspace_busy) and a purge with none to remove is not refused.
func sweepWorktrees(ctx context.Context, s *store.Store) ([]worktree.Abandoned, error) {
	root := s.Workspace().Root
	w, err := worktree.OpenWriter(ctx, root)
	if core.CodeOf(err) == core.CodeWorkspaceBusy {
		left, ferr := worktree.FindAbandoned(ctx, s.Queries, root, nil)
		if ferr != nil || len(left) == 0 {
			return nil, ferr
		}
		return nil, core.Errorf(core.CodeWorkspaceBusy, "%d abandoned task worktree(s) were not removed: the workspace owner is running (first: %s)", len(left), left[0].Path).
			WithHint("purge again when it has stopped (fluzo-agent status)")
	}
	if err != nil {
		return nil, err
	}
	defer w.Close()
	return w.Sweep(ctx)
}

// printWorktrees reports the worktrees removed (or that would be).
func printWorktrees(c *cli.Command, verb string, found []worktree.Abandoned) error {
	if len(found) == 0 {
		return nil
	}
	if c.Bool("json") {
		out := newJSONL(c.Root().Writer)
		out.put(record("purge_worktrees", worktreesRecord{Worktrees: found}))
		return out.flush()
	}
	for _, a := range found {
		fmt.Fprintf(c.Root().Writer, "%s worktree %s and branch %s: %s\n", verb, termsafe.Line(a.Path), termsafe.Line(a.Branch), a.Reason)
	}
	return nil
}
