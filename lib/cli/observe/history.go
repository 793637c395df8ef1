package observe

import (
	"context"
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

// taskArg returns the single TASK argument.
func taskArg(c *cli.Command) (string, error) {
	if c.Args().Len() != 1 {
		return "", core.Errorf(core.CodeUsage, "%s needs exactly one TASK id", c.Name).
			WithHint("list tasks with 'fluzo-store tasks', then run '%s TASK'", c.FullName())
	}
	return c.Args().First(), nil
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
