package observe

import (
	"context"
	"encoding/json"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

// DatasetVersion versions the evaluation dataset's record shapes.
const DatasetVersion = 1

// inputNotCaptured is stated on every record whose input was not kept.
const inputNotCaptured = "input not captured: the exact input cannot be reconstructed from its fingerprint"

// observationFields is the allow-list exported from an observation; any
// other stored field (for example captured content) is left out.
var observationFields = []string{"point", "fingerprint", "questions", "answers", "latency_ms", "failure", "skipped", "action_taken"}

// EvalRecord is one observation in the dataset. Observation, actual
// behaviour and ground truth stay separate fields.
type EvalRecord struct {
	V             int            `json:"v"`
	Type          string         `json:"type"` // laya.eval_record
	Observation   string         `json:"observation"`
	Session       string         `json:"session"`
	Task          string         `json:"task,omitempty"`
	Attempt       string         `json:"attempt,omitempty"`
	Trace         string         `json:"trace,omitempty"`
	CreatedAt     time.Time      `json:"created_at"`
	Kind          string         `json:"kind"`
	Observed      map[string]any `json:"observed"`
	Status        string         `json:"status"` // answered, failed, skipped
	ActualAction  any            `json:"actual_action"`
	TaskOutcome   string         `json:"task_outcome,omitempty"`
	InputCaptured bool           `json:"input_captured"`
	InputNote     string         `json:"input_note,omitempty"`
	Labeled       bool           `json:"labeled"`
	Label         *Label         `json:"label"`
}

// DatasetHeader opens an export and says what the records mean.
type DatasetHeader struct {
	V         int       `json:"v"`
	Type      string    `json:"type"` // laya.dataset
	Schema    int       `json:"schema"`
	Generated time.Time `json:"generated"`
	Since     string    `json:"since,omitempty"`
	Filter    string    `json:"filter"` // all or labeled
	Records   int       `json:"records"`
	Labeled   int       `json:"labeled"`
	Unlabeled int       `json:"unlabeled"`
	Note      string    `json:"note"`
}

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
	labels, err := readLabels(s.Workspace().Drive())
	if err != nil {
		return err
	}
	recs, err := collectRecords(ctx, s, since, labels, c.Bool("labeled"))
	if err != nil {
		return err
	}
	h := DatasetHeader{V: 1, Type: "laya.dataset", Schema: DatasetVersion, Generated: time.Now().UTC(), Since: c.String("since"),
		Filter: "all", Records: len(recs),
		Note: "observations, actual actions and human labels are separate; agreement on unlabelled records is not accuracy"}
	if c.Bool("labeled") {
		h.Filter = "labeled"
	}
	for _, r := range recs {
		if r.Labeled {
			h.Labeled++
		} else {
			h.Unlabeled++
		}
	}
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

func collectRecords(ctx context.Context, s *store.Store, since time.Time, labels map[string]Label, onlyLabeled bool) ([]EvalRecord, error) {
	sessions, err := s.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	var out []EvalRecord
	for _, sess := range sessions {
		obs, err := s.ListObservations(ctx, sess.ID)
		if err != nil {
			return nil, err
		}
		for _, o := range obs {
			if o.CreatedAt.Before(since) {
				continue
			}
			r := evalRecord(ctx, s, o)
			if l, ok := labels[o.ID]; ok {
				l := l
				r.Label, r.Labeled = &l, true
			}
			if onlyLabeled && !r.Labeled {
				continue
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func evalRecord(ctx context.Context, s *store.Store, o store.Observation) EvalRecord {
	raw := map[string]any{}
	json.Unmarshal(o.Data, &raw)
	observed := map[string]any{}
	for _, k := range observationFields {
		if v, ok := raw[k]; ok && k != "action_taken" {
			observed[k] = v
		}
	}
	r := EvalRecord{V: DatasetVersion, Type: "laya.eval_record", Observation: o.ID, Session: o.SessionID, Task: o.TaskID,
		Attempt: o.AttemptID, CreatedAt: o.CreatedAt.UTC(), Kind: o.Kind, Observed: observed, ActualAction: raw["action_taken"]}
	switch {
	case raw["skipped"] != nil && raw["skipped"] != "":
		r.Status = "skipped"
	case raw["failure"] != nil && raw["failure"] != "":
		r.Status = "failed"
	default:
		r.Status = "answered"
	}
	if captured, _ := raw["input_captured"].(bool); captured {
		r.InputCaptured = true
	} else {
		r.InputNote = inputNotCaptured
	}
	if o.AttemptID != "" {
		if a, err := s.GetAttempt(ctx, o.AttemptID); err == nil {
			r.Trace = a.TraceID
		}
	}
	if o.TaskID != "" {
		if t, err := s.GetTask(ctx, o.TaskID); err == nil {
			r.TaskOutcome = string(t.State)
		}
	}
	return r
}
