package observe

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Label is a human label for one observation. Labels are ground truth,
// kept apart from the observation and the runtime's action; every label
// is appended to the store's label log (store.AppendEvalLabel), and the
// latest one for an observation is current.
type Label struct {
	V            int       `json:"v"`
	Type         string    `json:"type"` // laya.label
	Observation  string    `json:"observation"`
	Label        string    `json:"label"`
	Annotator    string    `json:"annotator"`
	Source       string    `json:"source"`
	LabelVersion int       `json:"label_version"`
	TS           time.Time `json:"ts"`
}

// LabelInput is what a labeller gives.
type LabelInput struct {
	Observation  string
	Label        string
	Annotator    string
	Source       string
	LabelVersion int
}

// MaxLabelText bounds each text field of a label.
const MaxLabelText = 200

// Validate checks the text fields: each must be one non-blank line of at
// most MaxLabelText characters. The usage error names the field in its
// "field" detail (label, annotator or source).
func (in LabelInput) Validate() error {
	for _, f := range []struct{ name, value string }{{"label", in.Label}, {"annotator", in.Annotator}, {"source", in.Source}} {
		if strings.TrimSpace(f.value) == "" || len(f.value) > MaxLabelText || strings.ContainsAny(f.value, "\n\r\x1b") {
			return core.Errorf(core.CodeUsage, "the label's %s must be one line of at most %d characters", f.name, MaxLabelText).
				With("field", f.name)
		}
	}
	return nil
}

// AddLabel validates in, checks that the observation is stored, and
// appends the label to the label log. It never changes the observation,
// the task or anything the runtime did.
func AddLabel(ctx context.Context, s *store.Store, in LabelInput, now time.Time) (Label, error) {
	if err := in.Validate(); err != nil {
		return Label{}, err
	}
	if err := observationExists(ctx, s, in.Observation); err != nil {
		return Label{}, err
	}
	l := Label{V: 1, Type: "laya.label", Observation: in.Observation, Label: in.Label, Annotator: in.Annotator,
		Source: in.Source, LabelVersion: in.LabelVersion, TS: now.UTC()}
	b, err := json.Marshal(l)
	if err != nil {
		return Label{}, core.Wrap(err, core.CodeInternal, "cannot encode the label")
	}
	return l, store.AppendEvalLabel(s.Workspace(), b)
}

// Labels returns the latest label per observation. A missing log is
// empty; lines that are not labels are skipped.
func Labels(ws store.Workspace) (map[string]Label, error) {
	lines, err := store.ReadEvalLabels(ws)
	if err != nil {
		return nil, err
	}
	out := map[string]Label{}
	for _, line := range lines {
		var l Label
		if json.Unmarshal(line, &l) == nil && l.Type == "laya.label" && l.Observation != "" {
			out[l.Observation] = l
		}
	}
	return out, nil
}

// observationExists checks the store for the observation.
func observationExists(ctx context.Context, s *store.Store, id string) error {
	sessions, err := s.ListSessions(ctx)
	if err != nil {
		return err
	}
	for _, sess := range sessions {
		obs, err := s.ListObservations(ctx, sess.ID)
		if err != nil {
			return err
		}
		for _, o := range obs {
			if o.ID == id {
				return nil
			}
		}
	}
	return core.Errorf(core.CodeNotFound, "no observation %s in this workspace", id).
		WithHint("list observations with 'fluzo-observe eval export'")
}
