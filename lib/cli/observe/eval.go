package observe

import (
	"context"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/observe"
	"github.com/urfave/cli/v3"
)

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "export Laya evaluation datasets and record human labels",
		Commands: []*cli.Command{
			{
				Name:  "export",
				Usage: "print a versioned, sanitized dataset of Laya observations as JSONL",
				Description: `export prints a laya.dataset header, then one laya.eval_record per shadow
observation: what was observed (decision point, fingerprint, questions,
answers, latency, failure or skip reason), the runtime's actual action, the
task's later outcome, and the latest human label if any. Labelled and
unlabelled records are marked; agreement on unlabelled records is not
accuracy. Only allow-listed observation fields are exported; when the input
was not captured the record says it cannot be reconstructed.`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "labeled", Usage: "only records with a human label"},
					&cli.StringFlag{Name: "since", Usage: "only observations at or after `TIME` (RFC 3339 or YYYY-MM-DD)"},
				},
				Action: evalExport,
			},
			labelCommand(),
			evalReportCommand(),
		},
	}
}

func parseSince(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, core.Errorf(core.CodeUsage, "--since %q is not a time", s).
		WithHint("use RFC 3339 (2026-01-02T15:04:05Z) or a date (2026-01-02)")
}

func evalExport(ctx context.Context, c *cli.Command) error {
	since, err := parseSince(c.String("since"))
	if err != nil {
		return err
	}
	s, err := openHistory(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	filter := observe.EvalFilter{Since: since, OnlyLabeled: c.Bool("labeled")}
	recs, err := observe.EvalRecords(ctx, s, filter)
	if err != nil {
		return err
	}
	h := observe.NewDataset(recs, filter, c.String("since"), time.Now())
	w := c.Root().Writer
	if err := writeJSON(w, h); err != nil {
		return err
	}
	for i := range recs {
		if err := writeJSON(w, &recs[i]); err != nil {
			return err
		}
	}
	return nil
}
