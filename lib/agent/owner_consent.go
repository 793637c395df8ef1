package agent

import (
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/store"
)

// admitConsent is the consent gate of an owner (PRD §26, invariant 14):
// it runs after the configuration is valid and before the data root is
// created, the lock taken or any destination contacted. With o.Consent the
// user's explicit flag is recorded first; the plain-HTTP exception is never
// implied by it.
func admitConsent(ws store.Workspace, cfg *config.Config, o OwnerOptions) (consent.Record, error) {
	dir := o.ConsentDir
	if dir == "" {
		dir = consent.DefaultDir()
	}
	s := consent.Store{Dir: dir}
	sc := consent.Scope{Workspace: ws, Config: cfg, ConfigFile: o.ConfigFile, Overrides: o.Overrides}
	if o.Consent {
		if _, ok, err := s.Lookup(ws, cfg.Fingerprint()); err != nil || !ok {
			if _, err := s.Grant(sc, consent.HowFlag, nil); err != nil {
				return consent.Record{}, err
			}
		}
	}
	return s.Check(sc)
}
