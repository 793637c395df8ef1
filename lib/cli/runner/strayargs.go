package runner

import (
	"context"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

// strayGuarded marks actions already wrapped, so Prepare stays idempotent
// (the documentation generator prepares the same tree again).
type strayGuarded struct{}

// refuseStrayArguments makes a command that declares no positional
// arguments (no ArgsUsage, no Arguments) fail with a usage error when given
// some: "fluzo-agent run --task x tests" must not silently drop "tests".
func refuseStrayArguments(cmd *cli.Command) {
	if cmd.Action == nil || len(cmd.Commands) > 0 || cmd.ArgsUsage != "" || len(cmd.Arguments) > 0 || cmd.SkipFlagParsing {
		return
	}
	if cmd.Metadata == nil {
		cmd.Metadata = map[string]any{}
	}
	if _, done := cmd.Metadata["fluzo.strayGuard"]; done {
		return
	}
	cmd.Metadata["fluzo.strayGuard"] = strayGuarded{}
	action := cmd.Action
	cmd.Action = func(ctx context.Context, c *cli.Command) error {
		if c.Args().Len() > 0 {
			return strayArguments(c)
		}
		return action(ctx, c)
	}
}

func strayArguments(c *cli.Command) error {
	args := c.Args().Slice()
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = `"` + a + `"`
	}
	noun := "argument"
	if len(args) > 1 {
		noun = "arguments"
	}
	return core.Errorf(core.CodeUsage, "%s takes no positional arguments: unexpected %s %s", c.FullName(), noun, strings.Join(quoted, " ")).
		WithHint("quote a flag value that contains spaces; see '%s --help'", c.FullName())
}
