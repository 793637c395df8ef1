package agent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/provider"
	"github.com/josecorral/fluzo/lib/provider/laya"
	"github.com/josecorral/fluzo/lib/store"
)

// layaObserver builds the shadow observer when [decision] enabled is set,
// or returns nil. Its answers are recorded and never read by the loop.
func (w *Owner) layaObserver(refs func() Refs) (*laya.Observer, error) {
	if !w.Config.Bool("decision.enabled") {
		return nil, nil
	}
	id := w.Config.String("decision.model")
	m, ok := w.Config.Model(id)
	if !ok {
		return nil, core.Errorf(core.CodeConfigurationRequired, "decision.model names %q, but there is no [models.%s] entry", id, id).
			WithHint("add a laya_systemone [models.%s] entry or set decision.enabled = false", id)
	}
	key, err := w.Config.APIKey(id, func(string) string { return "" })
	if err != nil {
		key = ""
	}
	base := strings.TrimSuffix(strings.TrimSuffix(m.Endpoint, "/"), "/systemone")
	if base == "" {
		base = m.BaseURL
	}
	client, err := provider.NewLaya(provider.Endpoint{BaseURL: base, APIKey: provider.Secret(key),
		Timeouts: provider.Timeouts{Total: w.Config.Seconds("decision.timeout_seconds")}})
	if err != nil {
		return nil, err
	}
	return &laya.Observer{
		Timeout:    w.Config.Seconds("decision.timeout_seconds"),
		Max:        int(w.Config.Int("decision.max_observations_per_task")),
		PauseAfter: int(w.Config.Int("decision.failure_pause_threshold")),
		Admit: func() (func(), bool) {
			s, err := w.admission.Admit(context.Background(), admit.Request{Model: id, Class: admit.Shadow, Purpose: "laya"})
			if err != nil {
				return nil, false
			}
			s.Dispatched()
			return func() { s.Complete() }, true
		},
		Ask:    laya.NewAsker(client, m.Model),
		Record: func(ob laya.Observation) { w.recordObservation(refs(), ob) },
	}, nil
}

// recordObservation stores one observation (answered, failed or skipped).
func (w *Owner) recordObservation(refs Refs, ob laya.Observation) {
	span := w.traceObservation(refs, ob)
	data, _ := json.Marshal(ob)
	var evs []core.Event
	err := w.Store.Write(context.Background(), func(tx *store.Tx) error {
		tx.Meta.Trace, tx.Meta.Span = refs.Trace, span
		ev, err := tx.AddObservation(&store.Observation{SessionID: refs.Session, TaskID: refs.Task, AttemptID: refs.Attempt, Kind: ob.Point, Data: data})
		evs = append(evs[:0], ev)
		return err
	})
	if err == nil {
		for _, ev := range evs {
			w.send(ev)
		}
	}
	w.send(struct {
		V    int    `json:"v"`
		Type string `json:"type"`
		laya.Observation
	}{1, "live.observation", ob})
}
