package observe

import (
	"context"
	"fmt"
	"os"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func purgeCommand() *cli.Command {
	return &cli.Command{
		Name:  "purge",
		Usage: "remove the local telemetry archive (--local --dry-run or --local --yes)",
		Description: `purge removes the segments and health snapshot in .fluzodrive/telemetry.
--local is required: it is the only scope, and it never deletes telemetry
already exported to a collector or backend (that data follows the
destination's own retention). --dry-run lists what would be removed; --yes
removes it. purge refuses with exit 11 while a Fluzo process is writing
telemetry, and holds the archive lock while it works so no writer starts
mid-purge. Durable task history in the store is not touched (see
fluzo-store history purge).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "local", Usage: "purge the local archive (required; remote data is never deleted)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "list what would be removed, remove nothing"},
			&cli.BoolFlag{Name: "yes", Usage: "confirm removal"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON record instead of text"},
		},
		Action: func(_ context.Context, c *cli.Command) error {
			if !c.Bool("local") {
				return runner.Usage(c, "purge needs --local (only the local archive can be purged)")
			}
			dry, yes := c.Bool("dry-run"), c.Bool("yes")
			if dry && yes {
				return runner.Usage(c, "--dry-run and --yes exclude each other")
			}
			if !dry && !yes {
				return core.Errorf(core.CodeConfirmationRequired, "purging the local telemetry archive needs confirmation").
					WithHint("run with --dry-run to see what would be removed, or --yes to remove it")
			}
			ws, err := workspace(c)
			if err != nil {
				return err
			}
			plan, err := telemetry.Purge(driveDir(ws), dry)
			if err != nil {
				return err
			}
			w := c.Root().Writer
			if c.Bool("json") {
				return writeJSON(w, plan)
			}
			verb := "removed"
			if dry {
				verb = "would remove"
			}
			for _, f := range plan.Files {
				fmt.Fprintf(w, "%s %s\n", verb, termsafe.Line(f))
			}
			if _, err := os.Lstat(plan.Dir); os.IsNotExist(err) {
				// Do not claim to have purged a directory that never existed.
				fmt.Fprintf(w, "no local telemetry archive at %s: nothing to purge\n", termsafe.Line(plan.Dir))
			} else {
				fmt.Fprintf(w, "%s %d file(s), %s from %s\n", verb, len(plan.Files), humanBytes(plan.Bytes), termsafe.Line(plan.Dir))
			}
			fmt.Fprintf(w, "note: %s\n", plan.Remote)
			return nil
		},
	}
}
