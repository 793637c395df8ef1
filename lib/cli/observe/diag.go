package observe

import (
	"context"
	"sort"

	"github.com/josecorral/fluzo/lib/observe"
	"github.com/urfave/cli/v3"
)

func diagCommand() *cli.Command {
	return &cli.Command{
		Name:      "diag",
		Usage:     "diagnose a task: trace IDs, attempts, operations, failures, usage, telemetry health",
		ArgsUsage: "[TASK]",
		Description: `diag gathers what the local records say about one task: its trace IDs (one
per attempt), attempts and their outcomes, every operation with its state
(including unknown outcomes that need reconciliation), failures, token usage
(unknown usage is reported as unknown, never zero), the estimated cost the
archived model-call spans carry with its provenance (unknown without a
configured price, never zero), budget events,
compactions, Laya observations (labelled as observations), and the local
telemetry archive's spans and logs for those traces with the last health
snapshot, and the workspace's consent as its consent.granted/consent.revoked
events tell it (granted: when, how, fingerprint, destinations; or not
granted). It reads the store read-only and executes nothing.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one observe.diag JSON record"},
			&cli.BoolFlag{Name: "spans", Usage: "also list the task's archived spans as trees, with timing and outcome"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			s, err := openHistory(ctx, c)
			if err != nil {
				return err
			}
			defer s.Close()
			id, err := taskArg(ctx, c, s)
			if err != nil {
				return err
			}
			d, err := observe.Diagnose(ctx, s, id, observe.DiagnoseOptions{Spans: c.Bool("spans")})
			if err != nil {
				return err
			}
			d.Task.Request = clean(d.Task.Request, 200)
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, observe.NewDiagRecord(&d))
			}
			printDiag(c.Root().Writer, &d)
			if c.Bool("spans") {
				printSpans(c.Root().Writer, d.Spans)
			}
			return nil
		},
	}
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
