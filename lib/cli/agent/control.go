package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/control"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

func workspaceFlag() cli.Flag {
	return &cli.StringFlag{Name: "workspace", Aliases: []string{"C"}, Usage: "workspace `DIR` (default: the current directory's git working tree)"}
}

// configFlag and setFlag select the configuration the same way in every
// command that opens the workspace owner.
func configFlag() cli.Flag {
	return &cli.StringFlag{Name: "config", Usage: "use configuration `FILE` instead of <workspace>/.fluzo"}
}

func setFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "set", Usage: "override a setting, `KEY=VALUE` (repeatable)"}
}

// consentFlag records the user's consent for the selected configuration's
// destinations explicitly, for non-interactive use such as CI. It never
// accepts the plain-HTTP exception (fluzo-admit consent grant --allow-http).
func consentFlag() cli.Flag {
	return &cli.BoolFlag{Name: "consent", Usage: "record consent for this configuration's destinations, grants and tool environment (see fluzo-admit consent); without it an unconsented configuration exits 3 before contacting anything"}
}

// verifyConflict refuses --verify together with --no-verify.
func verifyConflict(c *cli.Command) error {
	if c.Bool("no-verify") && c.String("verify") != "" {
		return runner.Usage(c, "--verify and --no-verify contradict each other; give one")
	}
	return nil
}

// workspaceRoot resolves --workspace (or the current directory) to the
// git top level, the identity control sockets are keyed by.
func workspaceRoot(ctx context.Context, c *cli.Command) (string, error) {
	dir := c.String("workspace")
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", core.Wrap(err, core.CodeUsage, "cannot resolve the workspace "+dir)
	}
	return lagent.GitTopLevel(ctx, abs)
}

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show what the owner running in this workspace is doing",
		Flags: []cli.Flag{workspaceFlag(), controlJSONFlag()},
		Action: func(ctx context.Context, c *cli.Command) error {
			return sendControl(ctx, c, map[string]any{"cmd": "status"})
		},
	}
}

func cancelCommand() *cli.Command {
	return &cli.Command{
		Name:      "cancel",
		Usage:     "cancel a running task: stop new work, end its processes gracefully, keep partial edits",
		ArgsUsage: "TASK",
		Flags:     []cli.Flag{workspaceFlag(), controlJSONFlag()},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() != 1 {
				return runner.Usage(c, "cancel needs exactly one TASK id")
			}
			return sendControl(ctx, c, map[string]any{"cmd": "cancel", "task": c.Args().First()})
		},
	}
}

func killCommand() *cli.Command {
	return &cli.Command{
		Name:      "kill",
		Usage:     "force-stop a task: kill its verified owned process groups (needs --yes)",
		ArgsUsage: "TASK",
		Flags:     []cli.Flag{workspaceFlag(), &cli.BoolFlag{Name: "yes", Usage: "confirm the force stop"}, controlJSONFlag()},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() != 1 {
				return runner.Usage(c, "kill needs exactly one TASK id")
			}
			if !c.Bool("yes") {
				return core.Errorf(core.CodeConfirmationRequired, "force stop kills the task's processes without waiting for them").
					WithHint("run 'fluzo-agent kill %s --yes' to confirm, or 'fluzo-agent cancel %s' to stop gracefully", c.Args().First(), c.Args().First())
			}
			return sendControl(ctx, c, map[string]any{"cmd": "force_stop", "task": c.Args().First(), "yes": true})
		},
	}
}

// sendControl sends one command to the running owner and prints its answer
// (a sentence, or the ack record with --json); a typed error answer exits
// with its code.
func sendControl(ctx context.Context, c *cli.Command, cmd map[string]any) error {
	root, err := workspaceRoot(ctx, c)
	if err != nil {
		return err
	}
	ans, err := control.Dial(ctx, root, cmd)
	if err != nil && cmd["cmd"] == "status" {
		return noOwnerStatus(ctx, root, err)
	}
	if err != nil {
		return err
	}
	var rec core.ErrorRecord
	if json.Unmarshal(ans, &rec) == nil && rec.Type == "error" && rec.Error != nil {
		return rec.Error
	}
	if c.Bool("json") {
		fmt.Fprintln(c.Root().Writer, string(ans))
		return nil
	}
	printControl(c.Root().Writer, cmd["cmd"].(string), ans)
	return nil
}
