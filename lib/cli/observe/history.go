package observe

import (
	"context"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// openHistory opens the workspace's store read-only: replay and diag never
// create, migrate or write anything, and never contact a provider.
func openHistory(ctx context.Context, c *cli.Command) (*store.Store, error) {
	dir := c.Root().String("workspace")
	ws, err := store.ResolveWorkspace(ctx, dir)
	if err != nil {
		return nil, err
	}
	return store.OpenReadOnly(ctx, ws)
}

// taskArg returns the TASK argument or, without one, the workspace's
// latest task: the one a user who just ran something wants to look at. The
// choice is said on stderr so the output itself stays the task's.
func taskArg(ctx context.Context, c *cli.Command, s *store.Store) (string, error) {
	switch c.Args().Len() {
	case 1:
		return c.Args().First(), nil
	case 0:
	default:
		return "", core.Errorf(core.CodeUsage, "%s takes at most one TASK id", c.Name).
			WithHint("list tasks with 'fluzo-store tasks', then run '%s TASK'", c.FullName())
	}
	tasks, err := s.ListTasks(ctx, "")
	if err != nil {
		return "", err
	}
	if len(tasks) == 0 {
		return "", core.Errorf(core.CodeNotFound, "this store has no task yet").
			WithHint("run a task first (fluzo run --task '…')")
	}
	latest := tasks[len(tasks)-1].ID
	fmt.Fprintf(c.Root().ErrWriter, "%s: the latest task, %s\n", c.FullName(), latest)
	return latest, nil
}

// clean makes untrusted stored text a bounded, terminal-safe table cell:
// newlines and tabs become spaces, everything else follows termsafe.Line,
// and at most max runes of the original are kept (cut before escaping, so
// no escape is cut in half).
func clean(s string, max int) string {
	s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	if head, cut := termsafe.Head(s, max); cut {
		return termsafe.Line(head) + "…"
	}
	return termsafe.Line(s)
}
