package observe

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// EvalReport summarises the dataset, keeping unlabelled agreement (the
// recommendation matched what the runtime did) apart from labelled
// accuracy (the recommendation matched a human label).
type EvalReport struct {
	V            int                       `json:"v"`
	Type         string                    `json:"type"` // laya.report
	Question     string                    `json:"question"`
	Observations int                       `json:"observations"`
	ByStatus     map[string]int            `json:"by_status"`
	Coverage     *float64                  `json:"coverage"` // answered / observations
	Agreement    Ratio                     `json:"unlabeled_agreement"`
	NoAction     int                       `json:"no_action"` // recommended, but the runtime recorded no action
	Accuracy     Ratio                     `json:"labeled_accuracy"`
	Confusion    map[string]map[string]int `json:"confusion"` // label -> recommended -> n
	LatencyP50MS *int64                    `json:"latency_p50_ms"`
	LatencyP95MS *int64                    `json:"latency_p95_ms"`
	Note         string                    `json:"note"`
}

// Ratio is a count with its sample size; Rate is nil without samples.
type Ratio struct {
	Matches int      `json:"matches"`
	Samples int      `json:"samples"`
	Rate    *float64 `json:"rate"`
}

func (r *Ratio) add(match bool) {
	r.Samples++
	if match {
		r.Matches++
	}
	v := float64(r.Matches) / float64(r.Samples)
	r.Rate = &v
}

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
			labels, err := readLabels(s.Workspace().Drive())
			if err != nil {
				return err
			}
			recs, err := collectRecords(ctx, s, since, labels, false)
			if err != nil {
				return err
			}
			rep := buildReport(recs, c.String("question"))
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, rep)
			}
			printReport(c.Root().Writer, rep)
			return nil
		},
	}
}

func buildReport(recs []EvalRecord, question string) EvalReport {
	rep := EvalReport{V: 1, Type: "laya.report", Question: question, ByStatus: map[string]int{}, Confusion: map[string]map[string]int{},
		Note: "unlabelled agreement compares with what the runtime did, not with the right answer"}
	var lat []int64
	for _, r := range recs {
		rep.Observations++
		rep.ByStatus[r.Status]++
		if ms, ok := r.Observed["latency_ms"].(float64); ok && r.Status == "answered" {
			lat = append(lat, int64(ms))
		}
		rec := recommendation(r, question)
		if r.Status != "answered" || rec == "" {
			continue
		}
		actual, _ := r.ActualAction.(string)
		switch telemetry.LayaAgreement(rec, actual) {
		case telemetry.AgreementAgree:
			rep.Agreement.add(true)
		case telemetry.AgreementDisagree:
			rep.Agreement.add(false)
		case telemetry.AgreementNoAction:
			rep.NoAction++
		}
		if r.Label != nil {
			rep.Accuracy.add(rec == r.Label.Label)
			if rep.Confusion[r.Label.Label] == nil {
				rep.Confusion[r.Label.Label] = map[string]int{}
			}
			rep.Confusion[r.Label.Label][rec]++
		}
	}
	if rep.Observations > 0 {
		v := float64(rep.ByStatus["answered"]) / float64(rep.Observations)
		rep.Coverage = &v
	}
	if len(lat) > 0 {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		p50, p95 := lat[(len(lat)-1)*50/100], lat[(len(lat)-1)*95/100]
		rep.LatencyP50MS, rep.LatencyP95MS = &p50, &p95
	}
	return rep
}

// recommendation reads the typed answer for question from the observed
// answers with the agent's definition (telemetry.RecommendedAction), so
// this report and the fluzo.laya.agreement metric count the same thing.
func recommendation(r EvalRecord, question string) string {
	raw, err := json.Marshal(r.Observed["answers"])
	if err != nil {
		return ""
	}
	return telemetry.RecommendedAction(raw, question)
}

func printReport(w interface{ Write([]byte) (int, error) }, r EvalReport) {
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
