package observe

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/josecorral/fluzo/lib/observe"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func evalReportCommand() *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "summarise Laya observations: coverage, unlabelled agreement, labelled accuracy",
		Description: `report reads the same records as export and prints, for one question type,
the observation count by status (answered, failed, skipped), coverage, the
agreement between recommendation and the runtime's actual action (unlabelled:
not accuracy), the accuracy against human labels with a confusion matrix
(label by recommendation), and latency percentiles, each with its sample
count. Rates without samples are null, never zero.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "question", Usage: "answer key to evaluate", Value: telemetry.QuestionNextAction},
			&cli.StringFlag{Name: "since", Usage: "only observations at or after TIME (RFC 3339 or YYYY-MM-DD)"},
			&cli.BoolFlag{Name: "json", Usage: "print one laya.report JSON record"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			since, err := parseSince(c.String("since"))
			if err != nil {
				return err
			}
			s, err := openHistory(ctx, c)
			if err != nil {
				return err
			}
			defer s.Close()
			recs, err := observe.EvalRecords(ctx, s, observe.EvalFilter{Since: since})
			if err != nil {
				return err
			}
			rep := observe.Report(recs, c.String("question"))
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, rep)
			}
			printReport(c.Root().Writer, rep)
			return nil
		},
	}
}

func printReport(w interface{ Write([]byte) (int, error) }, r observe.EvalReport) {
	fmt.Fprintf(w, "question: %s\n", termsafe.Line(r.Question))
	fmt.Fprintf(w, "observations: %d (answered %d, failed %d, skipped %d)\n", r.Observations, r.ByStatus["answered"], r.ByStatus["failed"], r.ByStatus["skipped"])
	fmt.Fprintf(w, "coverage: %s\n", rate(r.Coverage))
	fmt.Fprintf(w, "unlabelled agreement with the runtime's action: %s (%d of %d; not accuracy)\n", rate(r.Agreement.Rate), r.Agreement.Matches, r.Agreement.Samples)
	if r.NoAction > 0 {
		fmt.Fprintf(w, "recommendations with no recorded runtime action: %d (not counted as agreement)\n", r.NoAction)
	}
	fmt.Fprintf(w, "labelled accuracy: %s (%d of %d labelled)\n", rate(r.Accuracy.Rate), r.Accuracy.Matches, r.Accuracy.Samples)
	labels := make([]string, 0, len(r.Confusion))
	for l := range r.Confusion {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		fmt.Fprintf(w, "  label %-12s recommended %v\n", clean(l, 12), termsafe.Line(fmt.Sprint(r.Confusion[l])))
	}
	if r.LatencyP50MS != nil {
		fmt.Fprintf(w, "latency: p50 %s, p95 %s\n", time.Duration(*r.LatencyP50MS)*time.Millisecond, time.Duration(*r.LatencyP95MS)*time.Millisecond)
	} else {
		fmt.Fprintln(w, "latency: unknown (no answered observations)")
	}
}

func rate(p *float64) string {
	if p == nil {
		return "unknown (no samples)"
	}
	return fmt.Sprintf("%.1f%%", *p*100)
}
