package tool

import (
	"context"
	"encoding/json"
	"os"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/baseline"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/urfave/cli/v3"
)

func baselineCommand() *cli.Command {
	return &cli.Command{
		Name:  "baseline",
		Usage: "record the workspace's staged, unstaged and untracked paths with fingerprints",
		Description: `Prints one {"v":1,"type":"baseline",...} record: HEAD and every path git reports
as staged, unstaged or untracked, with its status letters and the sha256 of its
working-tree content ("absent" when deleted); with the branch and the status
lines as 'git status --porcelain=v1 --branch' prints them, from the same git
process. Keep it and pass it to 'diff' later.`,
		Flags: []cli.Flag{rootFlag()},
		Action: func(ctx context.Context, c *cli.Command) error {
			root, err := confine.Open(c.String("root"), "")
			if err != nil {
				return err
			}
			defer root.Close()
			snap, err := baseline.Capture(ctx, root, os.Environ())
			if err != nil {
				return err
			}
			return json.NewEncoder(c.Root().Writer).Encode(snap)
		},
	}
}

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:  "diff",
		Usage: "compare the workspace with a baseline, separating pre-existing changes",
		Description: `Captures the current state and prints one {"v":1,"type":"diff_summary",...} record:
paths already changed at the baseline and untouched since (pre_existing), and
every path changed since, with kind changed (clean at the baseline), modified (changed before and again) or reverted. With --touched,
changes to paths not listed are marked uncertain: something other than the
task's file tools changed them.`,
		Flags: []cli.Flag{
			rootFlag(),
			&cli.StringFlag{Name: "baseline", Required: true, Usage: "baseline record written by 'fluzo-tool baseline'"},
			&cli.StringSliceFlag{Name: "touched", Usage: "a path the task's file tools wrote (repeatable)"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			data, err := os.ReadFile(c.String("baseline"))
			if err != nil {
				return core.Wrap(err, core.CodeNotFound, "cannot read the baseline "+c.String("baseline")).
					WithHint("write one first: fluzo-tool baseline --root DIR > FILE")
			}
			var before baseline.Snapshot
			if err := json.Unmarshal(data, &before); err != nil || before.Type != "baseline" {
				return core.Errorf(core.CodeInvalidRequest, "%s is not a baseline record", c.String("baseline")).
					WithHint("pass the output of 'fluzo-tool baseline'")
			}
			root, err := confine.Open(c.String("root"), "")
			if err != nil {
				return err
			}
			defer root.Close()
			after, err := baseline.Capture(ctx, root, os.Environ())
			if err != nil {
				return err
			}
			var touched []string
			if c.IsSet("touched") {
				touched = c.StringSlice("touched")
			}
			return json.NewEncoder(c.Root().Writer).Encode(baseline.Compare(&before, after, touched))
		},
	}
}
