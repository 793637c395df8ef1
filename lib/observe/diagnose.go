package observe

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/telemetry"
)

// Diagnosis is everything local records say about one task, without a
// TUI or an external dashboard.
type Diagnosis struct {
	Task core.Task `json:"task"`
	// Interrupted says the task stopped mid-run: still "running" with no
	// owner holding the workspace, or blocked as interrupted by a later
	// owner's recovery. Resume is then the command that continues it.
	Interrupted  bool               `json:"interrupted"`
	Resume       string             `json:"resume,omitempty"`
	Traces       []string           `json:"traces"`
	Attempts     []DiagAttempt      `json:"attempts"`
	Operations   OpCounts           `json:"operations"`
	Failures     []Failure          `json:"failures"`
	Usage        Usage              `json:"usage"`
	Budget       []json.RawMessage  `json:"budget_events"`
	Compactions  []store.Compaction `json:"compactions"`
	Observations []LayaObservation  `json:"laya_observations"`
	Telemetry    ArchiveSummary     `json:"telemetry"`
	// Sandbox is how the task's commands were confined.
	Sandbox CommandSandbox `json:"sandbox"`
	// Consent is the workspace's consent as its audit events tell it.
	Consent ConsentState `json:"consent"`
	// Spans is filled only when DiagnoseOptions.Spans asks for it.
	Spans []Span `json:"spans,omitempty"`
}

// DiagnoseOptions chooses the optional, costlier parts of a Diagnosis.
type DiagnoseOptions struct {
	// Spans lists the task's archived spans as trees.
	Spans bool
}

// DiagAttempt is one attempt with its operations.
type DiagAttempt struct {
	core.Attempt
	Operations []DiagOp `json:"operations"`
}

// DiagOp is one operation's identity and outcome (args and results are
// left out: they may be content).
type DiagOp struct {
	ID       string              `json:"id"`
	Tool     string              `json:"tool"`
	State    core.OperationState `json:"state"`
	Decision string              `json:"decision,omitempty"`
	Rule     string              `json:"rule,omitempty"`
}

// Verdict is the policy decision with the rule that made it.
func (o DiagOp) Verdict() string { return joinNonEmpty(o.Decision, o.Rule) }

// OpCounts counts operations by state; Unknown ones need reconciliation.
type OpCounts struct {
	Total   int            `json:"total"`
	ByState map[string]int `json:"by_state"`
	Unknown int            `json:"unknown"`
}

// Usage sums provider-reported tokens. Requests without reported usage
// are counted as unknown, and the totals then say they are partial.
type Usage struct {
	Requests        int    `json:"requests"`
	InputTokens     int64  `json:"input_tokens"`
	OutputTokens    int64  `json:"output_tokens"`
	UnknownRequests int    `json:"unknown_usage_requests"`
	Complete        bool   `json:"complete"`
	Note            string `json:"note,omitempty"`
}

// AllUnknown reports whether no request reported its tokens.
func (u Usage) AllUnknown() bool { return u.Requests > 0 && u.UnknownRequests == u.Requests }

// LayaObservation is a Laya observation, labelled as such: it never
// authorized, routed or blocked anything.
type LayaObservation struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Label   string          `json:"label"`
	Attempt string          `json:"attempt,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// ArchiveSummary correlates the task's traces with the local telemetry
// archive.
type ArchiveSummary struct {
	Archive    string            `json:"archive"`
	Spans      int               `json:"spans"`
	ErrorSpans int               `json:"error_spans"`
	Logs       int               `json:"logs"`
	Incomplete int               `json:"incomplete_records"`
	Cost       Cost              `json:"estimated_cost"`
	Health     *telemetry.Health `json:"health,omitempty"`
	Note       string            `json:"note,omitempty"`
}

// Diagnose reads one task's records from s (which may be read-only) and
// the workspace's telemetry archive. A missing task is not_found.
func Diagnose(ctx context.Context, s *store.Store, taskID string, opts DiagnoseOptions) (Diagnosis, error) {
	task, err := s.GetTask(ctx, taskID)
	if err != nil {
		return Diagnosis{}, err
	}
	d := Diagnosis{Task: task, Traces: []string{}, Failures: []Failure{}, Budget: []json.RawMessage{},
		Compactions: []store.Compaction{}, Observations: []LayaObservation{}, Operations: OpCounts{ByState: map[string]int{}}}
	attempts, err := s.ListAttempts(ctx, taskID)
	if err != nil {
		return Diagnosis{}, err
	}
	traces := map[string]bool{}
	for _, a := range attempts {
		if err := d.addAttempt(ctx, s, a); err != nil {
			return Diagnosis{}, err
		}
		if a.TraceID != "" && !traces[a.TraceID] {
			traces[a.TraceID] = true
			d.Traces = append(d.Traces, a.TraceID)
		}
	}
	if task.Interrupted(ownerActive(s)) {
		d.Interrupted, d.Resume = true, core.ResumeCommand(task.ID)
	}
	if task.State == core.TaskFailed || task.State == core.TaskBlocked || task.State == core.TaskCancelled {
		d.Failures = append(d.Failures, Failure{Subject: FailedTask, State: string(task.State), Reason: task.Reason})
	}
	d.Usage.Complete = d.Usage.UnknownRequests == 0
	if !d.Usage.Complete {
		d.Usage.Note = "some requests reported no usage: totals are partial, not zero"
	}
	if err := d.addSessionRecords(ctx, s); err != nil {
		return Diagnosis{}, err
	}
	if err := d.addSandbox(ctx, s); err != nil {
		return Diagnosis{}, err
	}
	if err := d.addConsent(ctx, s); err != nil {
		return Diagnosis{}, err
	}
	d.Telemetry = archiveFor(s.Workspace().Drive(), traces)
	if opts.Spans {
		if d.Spans, err = ArchivedSpans(s.Workspace().Drive(), d.Traces); err != nil {
			d.Telemetry.Note = "archive unreadable"
		}
		if d.Spans == nil {
			d.Spans = []Span{}
		}
	}
	return d, nil
}

func (d *Diagnosis) addAttempt(ctx context.Context, s *store.Store, a core.Attempt) error {
	da := DiagAttempt{Attempt: a, Operations: []DiagOp{}}
	if a.State == core.AttemptFailed || a.State == core.AttemptInterrupted || a.State == core.AttemptCancelled {
		d.Failures = append(d.Failures, Failure{Subject: FailedAttempt, ID: a.ID, State: string(a.State), Reason: a.Reason})
	}
	ops, err := s.ListOperations(ctx, a.ID)
	if err != nil {
		return err
	}
	detail, err := s.TaskFailureDetail(ctx, a.TaskID)
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
			d.Failures = append(d.Failures, Failure{Subject: FailedOperation, ID: o.ID, Tool: o.Tool, State: string(o.State)})
		case core.OpFailed:
			d.Failures = append(d.Failures, Failure{Subject: FailedOperation, ID: o.ID, Tool: o.Tool, State: string(o.State)})
		case core.OpDenied:
			f := Failure{Subject: FailedOperation, ID: o.ID, Tool: o.Tool, State: string(o.State), Reason: o.Rule}
			if at, ok := detail.Refused[o.ID]; ok {
				f.Detail = "attempted " + at.String()
			}
			d.Failures = append(d.Failures, f)
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
			d.Failures = append(d.Failures, Failure{Subject: FailedProviderRequest, ID: r.ID, State: string(r.State)})
		}
		if pf, ok := detail.Requests[r.ID]; ok {
			d.Failures = append(d.Failures, Failure{Subject: FailedProviderRequest, ID: r.ID, State: "failed", Detail: pf.String()})
		}
	}
	d.Attempts = append(d.Attempts, da)
	return nil
}

func (d *Diagnosis) addSessionRecords(ctx context.Context, s *store.Store) error {
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
			d.Observations = append(d.Observations, LayaObservation{ID: o.ID, Kind: o.Kind, Label: "observation (never a decision)", Attempt: o.AttemptID, Data: allowListed(o.Data)})
		}
	}
	_, err = s.EachEvent(ctx, store.EventQuery{Session: d.Task.SessionID, Task: d.Task.ID, Type: core.EvBudget}, func(ev core.Event) error {
		d.Budget = append(d.Budget, ev.Data)
		return nil
	})
	return err
}

// observationFields is the allow-list exported from an observation; any
// other stored field (for example captured content) is left out.
var observationFields = []string{"point", "fingerprint", "questions", "answers", "latency_ms", "failure", "skipped", "action_taken"}

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
func archiveFor(drive string, traces map[string]bool) ArchiveSummary {
	dir := filepath.Join(drive, telemetry.ArchiveDirName)
	t := ArchiveSummary{Archive: dir}
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

// ownerActive probes the workspace-owner lock; a failed probe is taken as
// an owner present, so a running task is never called interrupted on a
// guess.
func ownerActive(s *store.Store) bool {
	active, err := store.OwnerActive(s.Workspace())
	return active || err != nil
}
