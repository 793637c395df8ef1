package testscripts

import (
	"context"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/rogpeppe/go-internal/testscript"
)

// grantConsent records consent for DIR's .fluzo in the script's consent
// store (${XDG_STATE_HOME}/fluzo/consent), exactly as
// "fluzo-admit -C DIR consent grant --yes" would, without a process: the
// fixture plays the user who reviewed the configuration it just wrote.
func grantConsent(ts *testscript.TestScript, dir string) {
	// A directory that is no workspace or a configuration that is invalid
	// (scripts test those errors) gets no consent: the agent reports the
	// configuration problem first.
	ws, err := store.ResolveWorkspace(context.Background(), dir)
	if err != nil {
		return
	}
	cfg, err := config.Open(config.Options{Workspace: ws.Root})
	if err != nil {
		return
	}
	st := consent.Store{Dir: filepath.Join(ts.Getenv("XDG_STATE_HOME"), "fluzo", "consent")}
	if _, err := st.Grant(consent.Scope{Workspace: ws, Config: cfg}, consent.HowYes, nil); err != nil {
		ts.Fatalf("fluzo-config: consent: %v", err)
	}
}
