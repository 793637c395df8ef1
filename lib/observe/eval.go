package observe

import (
	"context"
	"encoding/json"
	"time"

	"github.com/josecorral/fluzo/lib/store"
)

// DatasetVersion versions the evaluation dataset's record shapes.
const DatasetVersion = 1

// InputNotCaptured is stated on every record whose input was not kept.
const InputNotCaptured = "input not captured: the exact input cannot be reconstructed from its fingerprint"

// Record statuses.
const (
	StatusAnswered = "answered"
	StatusFailed   = "failed"
	StatusSkipped  = "skipped"
)

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

// EvalFilter selects dataset records.
type EvalFilter struct {
	// Since keeps observations created at or after it (zero: all).
	Since time.Time
	// OnlyLabeled keeps records with a human label.
	OnlyLabeled bool
}

// EvalRecords reads every stored observation matching f, with the task's
// outcome and the latest human label of each.
func EvalRecords(ctx context.Context, s *store.Store, f EvalFilter) ([]EvalRecord, error) {
	labels, err := Labels(s.Workspace())
	if err != nil {
		return nil, err
	}
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
			if o.CreatedAt.Before(f.Since) {
				continue
			}
			r := evalRecord(ctx, s, o)
			if l, ok := labels[o.ID]; ok {
				r.Label, r.Labeled = &l, true
			}
			if f.OnlyLabeled && !r.Labeled {
				continue
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// NewDataset is the header for recs selected by f; since is the filter as
// the user gave it.
func NewDataset(recs []EvalRecord, f EvalFilter, since string, now time.Time) DatasetHeader {
	h := DatasetHeader{V: 1, Type: "laya.dataset", Schema: DatasetVersion, Generated: now.UTC(), Since: since,
		Filter: "all", Records: len(recs),
		Note: "observations, actual actions and human labels are separate; agreement on unlabelled records is not accuracy"}
	if f.OnlyLabeled {
		h.Filter = "labeled"
	}
	for _, r := range recs {
		if r.Labeled {
			h.Labeled++
		} else {
			h.Unlabeled++
		}
	}
	return h
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
		r.Status = StatusSkipped
	case raw["failure"] != nil && raw["failure"] != "":
		r.Status = StatusFailed
	default:
		r.Status = StatusAnswered
	}
	if captured, _ := raw["input_captured"].(bool); captured {
		r.InputCaptured = true
	} else {
		r.InputNote = InputNotCaptured
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
