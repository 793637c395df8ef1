package observe

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Consent states as the workspace's audit trail tells them.
const (
	ConsentGranted      = "granted"       // the latest consent event is a grant
	ConsentRevoked      = "revoked"       // the latest one is a revoke: not granted now
	ConsentNoneRecorded = "none_recorded" // no consent event in this store
)

// ConsentState is the workspace's consent from its consent.granted and
// consent.revoked events: the latest grant (fingerprint, redacted
// destinations, when and how), or the revoke after it, or none recorded.
// It reads the trail, not the private consent store: diag answers for
// the record a task ran under, without the configuration.
type ConsentState struct {
	State        string                `json:"state"`
	GrantedAt    string                `json:"granted_at,omitempty"`
	Fingerprint  string                `json:"fingerprint,omitempty"`
	How          string                `json:"how,omitempty"`
	Via          string                `json:"via,omitempty"`
	Destinations []consent.Destination `json:"destinations,omitempty"`
	RevokedAt    string                `json:"revoked_at,omitempty"`
}

func (d *Diagnosis) addConsent(ctx context.Context, s *store.Store) error {
	d.Consent = ConsentState{State: ConsentNoneRecorded}
	_, err := s.EachEvent(ctx, store.EventQuery{Type: core.EvConsentGranted + "," + core.EvConsentRevoked}, func(ev core.Event) error {
		if ev.Type == core.EvConsentRevoked {
			d.Consent = ConsentState{State: ConsentRevoked, RevokedAt: ev.TS.UTC().Format("2006-01-02T15:04:05Z")}
			return nil
		}
		var g consent.GrantedData
		json.Unmarshal(ev.Data, &g)
		d.Consent = ConsentState{State: ConsentGranted, GrantedAt: g.GrantedAt, Fingerprint: g.Fingerprint, How: g.How, Via: g.Via, Destinations: g.Destinations}
		return nil
	})
	return err
}

// Text is the state in one line, as diag prints it.
func (c ConsentState) Text() string {
	switch c.State {
	case ConsentGranted:
		var dests []string
		for _, d := range c.Destinations {
			dests = append(dests, fmt.Sprintf("%s %s (%s)", d.Purpose, d.URL, d.Class))
		}
		if len(dests) == 0 {
			dests = []string{"none"}
		}
		return fmt.Sprintf("granted %s (%s, %s) fingerprint %s; destinations: %s", c.GrantedAt, c.How, c.Via, c.Fingerprint, strings.Join(dests, ", "))
	case ConsentRevoked:
		return "not granted (revoked " + c.RevokedAt + ")"
	default:
		return "not granted: no consent event in this workspace's store"
	}
}
