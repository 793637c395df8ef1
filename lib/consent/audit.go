package consent

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Consent lives outside the workspace (so a copied .fluzodrive carries
// none), but every grant and revoke is also an audit event in the
// workspace's store: consent.granted / consent.revoked, workspace-wide.
// fluzo-admit writes it at once when the store exists; a consent given
// before there was a store (the first run's --consent, or a grant in a
// fresh clone) is written by the owner that it admitted, right after it
// opens — or creates — the store, once per record (fingerprint and time).
// So the store's trail holds every consent any task ran under, and the
// consent file stays the only thing that authorizes.

// GrantedData is the data of a consent.granted event: nothing secret —
// destinations are redacted and credentials named by reference only.
type GrantedData struct {
	Fingerprint  string        `json:"fingerprint"`
	GrantedAt    string        `json:"granted_at"`
	How          string        `json:"how"`
	Via          string        `json:"via"`
	Destinations []Destination `json:"destinations"`
	Cleartext    []string      `json:"cleartext_exceptions"`
}

// RevokedData is the data of a consent.revoked event.
type RevokedData struct {
	Revoked int    `json:"revoked"`
	Via     string `json:"via"`
}

// Where an audit event was written from.
const (
	ViaAdmit = "fluzo-admit consent" // recorded by the CLI
	ViaOwner = "owner"               // recorded by the owner it admitted
)

func grantedEvent(rec Record, via string) core.Event {
	dests := rec.Summary.Destinations
	if dests == nil {
		dests = []Destination{}
	}
	cleartext := rec.Cleartext
	if cleartext == nil {
		cleartext = []string{}
	}
	data, _ := json.Marshal(GrantedData{Fingerprint: rec.Fingerprint, GrantedAt: rec.GrantedAt, How: rec.How, Via: via,
		Destinations: dests, Cleartext: cleartext})
	return core.Event{Type: core.EvConsentGranted, Data: data}
}

// AuditGrant appends consent.granted for rec to the workspace's store if
// it exists (fluzo-admit never creates one: the owner records the grant
// when it does). It reports whether it was written.
func AuditGrant(ctx context.Context, ws store.Workspace, rec Record) (bool, error) {
	return appendIfStore(ctx, ws, grantedEvent(rec, ViaAdmit))
}

// AuditRevoke appends consent.revoked to the workspace's store if it
// exists. A revoke in a workspace without a store has nowhere to be
// recorded — and nothing ever ran there under the consent it removed.
func AuditRevoke(ctx context.Context, ws store.Workspace, n int) (bool, error) {
	data, _ := json.Marshal(RevokedData{Revoked: n, Via: ViaAdmit})
	return appendIfStore(ctx, ws, core.Event{Type: core.EvConsentRevoked, Data: data})
}

func appendIfStore(ctx context.Context, ws store.Workspace, ev core.Event) (bool, error) {
	if _, err := os.Lstat(ws.Database()); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	st, err := store.Open(ctx, ws)
	if err != nil {
		return false, err
	}
	defer st.Close()
	return true, st.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ev)
		return err
	})
}

// AuditAdmitted appends consent.granted for rec, the consent that
// admitted an owner, unless the store already records it (same
// fingerprint and time): a consent given before the store existed, or by
// --consent, enters the trail here. It returns the stored event (ok false
// when none was added), for the owner to stream.
func AuditAdmitted(ctx context.Context, st *store.Store, rec Record) (ev core.Event, ok bool, err error) {
	if rec.Fingerprint == "" {
		return core.Event{}, false, nil
	}
	recorded := false
	_, err = st.EachEvent(ctx, store.EventQuery{Type: core.EvConsentGranted}, func(ev core.Event) error {
		var d GrantedData
		if json.Unmarshal(ev.Data, &d) == nil && d.Fingerprint == rec.Fingerprint && d.GrantedAt == rec.GrantedAt {
			recorded = true
		}
		return nil
	})
	if err != nil || recorded {
		return core.Event{}, false, err
	}
	err = st.Write(ctx, func(tx *store.Tx) error {
		ev, err = tx.Append(grantedEvent(rec, ViaOwner))
		return err
	})
	return ev, err == nil, err
}
