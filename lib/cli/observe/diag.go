package observe

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/urfave/cli/v3"
)

// Diag is the "observe.diag" record: everything local records say about
// one task, without a TUI or an external dashboard.
type Diag struct {
	V            int                `json:"v"`
	Type         string             `json:"type"`
	Task         core.Task          `json:"task"`
	Traces       []string           `json:"traces"`
	Attempts     []DiagAttempt      `json:"attempts"`
	Operations   OpCounts           `json:"operations"`
	Failures     []string           `json:"failures"`
	Usage        DiagUsage          `json:"usage"`
	Budget       []json.RawMessage  `json:"budget_events"`
	Compactions  []store.Compaction `json:"compactions"`
	Observations []DiagObservation  `json:"laya_observations"`
	Telemetry    DiagTelemetry      `json:"telemetry"`
	Spans        []SpanRow          `json:"spans,omitempty"`
}

// DiagAttempt is one attempt with its operations.
type DiagAttempt struct {
	core.Attempt
	Operations []DiagOp `json:"operations"`
}

// DiagOp is one operation's identity and outcome (args and results are
// not shown: they may be content).
type DiagOp struct {
	ID       string              `json:"id"`
	Tool     string              `json:"tool"`
	State    core.OperationState `json:"state"`
	Decision string              `json:"decision,omitempty"`
	Rule     string              `json:"rule,omitempty"`
}

// OpCounts counts operations by state; Unknown ones need reconciliation.
type OpCounts struct {
	Total   int            `json:"total"`
	ByState map[string]int `json:"by_state"`
	Unknown int            `json:"unknown"`
}

// DiagUsage sums provider-reported tokens. Requests without reported usage
// are counted as unknown, and the totals then say they are partial.
type DiagUsage struct {
	Requests        int    `json:"requests"`
	InputTokens     int64  `json:"input_tokens"`
	OutputTokens    int64  `json:"output_tokens"`
	UnknownRequests int    `json:"unknown_usage_requests"`
	Complete        bool   `json:"complete"`
	Note            string `json:"note,omitempty"`
}

// DiagObservation is a Laya observation, labelled as such: it never
// authorized, routed or blocked anything.
type DiagObservation struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Label   string          `json:"label"`
	Attempt string          `json:"attempt,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// DiagTelemetry correlates the task's traces with the local archive.
type DiagTelemetry struct {
	Archive    string            `json:"archive"`
	Spans      int               `json:"spans"`
	ErrorSpans int               `json:"error_spans"`
	Logs       int               `json:"logs"`
	Incomplete int               `json:"incomplete_records"`
	Cost       DiagCost          `json:"estimated_cost"`
	Health     *telemetry.Health `json:"health,omitempty"`
	Note       string            `json:"note,omitempty"`
}

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
snapshot. It reads the store read-only and executes nothing.`,
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
			d, err := buildDiag(ctx, s, id)
			if err != nil {
				return err
			}
			if c.Bool("spans") {
				if d.Spans, err = archivedSpans(s.Workspace().Drive(), d.Traces); err != nil {
					d.Telemetry.Note = "archive unreadable"
				}
				if d.Spans == nil {
					d.Spans = []SpanRow{}
				}
			}
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, d)
			}
			printDiag(c.Root().Writer, d)
			if c.Bool("spans") {
				printSpans(c.Root().Writer, d.Spans)
			}
			return nil
		},
	}
}

func buildDiag(ctx context.Context, s *store.Store, id string) (*Diag, error) {
	task, err := s.GetTask(ctx, id)
	if err != nil {
		return nil, err
	}
	d := &Diag{V: 1, Type: "observe.diag", Task: task, Traces: []string{}, Failures: []string{}, Budget: []json.RawMessage{},
		Compactions: []store.Compaction{}, Observations: []DiagObservation{}, Operations: OpCounts{ByState: map[string]int{}}}
	d.Task.Request = clean(task.Request, 200)
	attempts, err := s.ListAttempts(ctx, id)
	if err != nil {
		return nil, err
	}
	traces := map[string]bool{}
	for _, a := range attempts {
		if err := addAttempt(ctx, s, d, a); err != nil {
			return nil, err
		}
		if a.TraceID != "" && !traces[a.TraceID] {
			traces[a.TraceID] = true
			d.Traces = append(d.Traces, a.TraceID)
		}
	}
	if task.State == core.TaskFailed || task.State == core.TaskBlocked || task.State == core.TaskCancelled {
		d.Failures = append(d.Failures, "task "+string(task.State)+reasonSuffix(task.Reason))
	}
	d.Usage.Complete = d.Usage.UnknownRequests == 0
	if !d.Usage.Complete {
		d.Usage.Note = "some requests reported no usage: totals are partial, not zero"
	}
	if err := addSessionRecords(ctx, s, d); err != nil {
		return nil, err
	}
	d.Telemetry = archiveFor(s.Workspace().Drive(), traces)
	return d, nil
}

func addAttempt(ctx context.Context, s *store.Store, d *Diag, a core.Attempt) error {
	da := DiagAttempt{Attempt: a, Operations: []DiagOp{}}
	if a.State == core.AttemptFailed || a.State == core.AttemptInterrupted || a.State == core.AttemptCancelled {
		d.Failures = append(d.Failures, "attempt "+a.ID+" "+string(a.State)+reasonSuffix(a.Reason))
	}
	ops, err := s.ListOperations(ctx, a.ID)
	if err != nil {
		return err
	}
	for _, o := range ops {
		da.Operations = append(da.Operations, DiagOp{ID: o.ID, Tool: o.Tool, State: o.State, Decision: o.Decision, Rule: o.Rule})
		d.Operations.Total++
		d.Operations.ByState[string(o.State)]++
		switch o.State {
		case core.OpUnknown:
			d.Operations.Unknown++
			d.Failures = append(d.Failures, "operation "+o.ID+" "+o.Tool+" outcome unknown (needs reconciliation; never retried automatically)")
		case core.OpFailed:
			d.Failures = append(d.Failures, "operation "+o.ID+" "+o.Tool+" failed")
		case core.OpDenied:
			d.Failures = append(d.Failures, "operation "+o.ID+" "+o.Tool+" denied"+reasonSuffix(o.Rule))
		}
	}
	reqs, err := s.ListProviderRequests(ctx, a.ID)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		d.Usage.Requests++
		if r.InputTokens == nil || r.OutputTokens == nil {
			d.Usage.UnknownRequests++
		}
		if r.InputTokens != nil {
			d.Usage.InputTokens += *r.InputTokens
		}
		if r.OutputTokens != nil {
			d.Usage.OutputTokens += *r.OutputTokens
		}
		if r.State == core.SlotUncertain {
			d.Failures = append(d.Failures, "provider request "+r.ID+" uncertain")
		}
	}
	d.Attempts = append(d.Attempts, da)
	return nil
}

func addSessionRecords(ctx context.Context, s *store.Store, d *Diag) error {
	comps, err := s.ListCompactions(ctx, d.Task.SessionID)
	if err != nil {
		return err
	}
	for _, c := range comps {
		if c.TaskID == d.Task.ID {
			c.Summary = "" // content; available in the artifact store
			d.Compactions = append(d.Compactions, c)
		}
	}
	obs, err := s.ListObservations(ctx, d.Task.SessionID)
	if err != nil {
		return err
	}
	for _, o := range obs {
		if o.TaskID == d.Task.ID {
			d.Observations = append(d.Observations, DiagObservation{ID: o.ID, Kind: o.Kind, Label: "observation (never a decision)", Attempt: o.AttemptID, Data: allowListed(o.Data)})
		}
	}
	_, err = s.EachEvent(ctx, store.EventQuery{Session: d.Task.SessionID, Task: d.Task.ID, Type: core.EvBudget}, func(ev core.Event) error {
		d.Budget = append(d.Budget, ev.Data)
		return nil
	})
	return err
}

// allowListed keeps only the exportable observation fields, so captured
// state or other content never reaches diagnostics output.
func allowListed(data json.RawMessage) json.RawMessage {
	raw := map[string]json.RawMessage{}
	if json.Unmarshal(data, &raw) != nil {
		return json.RawMessage(`{}`)
	}
	out := map[string]json.RawMessage{}
	for _, k := range observationFields {
		if v, ok := raw[k]; ok {
			out[k] = v
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// archiveFor counts archive spans and logs belonging to the task's traces.
func archiveFor(drive string, traces map[string]bool) DiagTelemetry {
	dir := filepath.Join(drive, telemetry.ArchiveDirName)
	t := DiagTelemetry{Archive: dir}
	st, err := telemetry.ScanArchive(dir, func(r *telemetry.Record) bool {
		if !traces[r.Trace] {
			return true
		}
		switch r.Type {
		case telemetry.RecordSpan:
			t.Spans++
			t.Cost.addSpan(r)
			if r.Status == "error" {
				t.ErrorSpans++
			}
		case telemetry.RecordLog:
			t.Logs++
		}
		return true
	})
	if err != nil {
		t.Note = "archive unreadable"
	}
	t.Incomplete = st.Incomplete
	t.Cost.finish()
	if h, err := telemetry.ReadHealthSnapshot(dir); err == nil {
		t.Health = h
	}
	if t.Spans == 0 && err == nil {
		t.Note = "no archived spans for these traces (telemetry disabled, not yet flushed, or purged); the store's events remain the history"
	}
	return t
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
