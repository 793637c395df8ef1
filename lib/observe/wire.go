package observe

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// DiagRecordType is the wire type of a diagnosis record.
const DiagRecordType = "observe.diag"

// DiagRecord is the "observe.diag" wire record: the diagnosis with
// failures as sentences (the record's shape predates the typed library).
// It is defined once here so that fluzo-observe diag --json and the
// agent port's diagnose query answer the same shape.
type DiagRecord struct {
	V            int                `json:"v"`
	Type         string             `json:"type"`
	Task         core.Task          `json:"task"`
	Interrupted  bool               `json:"interrupted"`
	Resume       string             `json:"resume,omitempty"`
	Traces       []string           `json:"traces"`
	Attempts     []DiagAttempt      `json:"attempts"`
	Operations   OpCounts           `json:"operations"`
	Failures     []string           `json:"failures"`
	Usage        Usage              `json:"usage"`
	Budget       []json.RawMessage  `json:"budget_events"`
	Compactions  []store.Compaction `json:"compactions"`
	Observations []LayaObservation  `json:"laya_observations"`
	Telemetry    ArchiveSummary     `json:"telemetry"`
	Sandbox      CommandSandbox     `json:"sandbox"`
	Consent      ConsentState       `json:"consent"`
	Spans        []Span             `json:"spans,omitempty"`
}

// NewDiagRecord wraps d in its wire record.
func NewDiagRecord(d *Diagnosis) DiagRecord {
	failures := make([]string, len(d.Failures))
	for i, f := range d.Failures {
		failures[i] = f.String()
	}
	return DiagRecord{V: 1, Type: DiagRecordType, Task: d.Task, Interrupted: d.Interrupted, Resume: d.Resume, Traces: d.Traces, Attempts: d.Attempts, Operations: d.Operations,
		Failures: failures, Usage: d.Usage, Budget: d.Budget, Compactions: d.Compactions, Observations: d.Observations,
		Telemetry: d.Telemetry, Sandbox: d.Sandbox, Consent: d.Consent, Spans: d.Spans}
}
