package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/provider"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tui/setup"
)

// fileSeam is the setup flow's side effects on the real files: the
// .fluzo through lib/config's atomic writers, the exclusion through
// lib/store, consent through lib/consent (the rule and store
// "fluzo-admit consent grant" uses).
type fileSeam struct {
	ctx       context.Context
	root      string
	path      string
	cfgFile   string
	overrides []string
}

func (s *fileSeam) Write(data []byte, replace bool) (string, error) {
	if !replace {
		err := config.Create(s.path, data)
		if core.CodeOf(err) == core.CodeConfirmationRequired {
			// Something created the file while the flow ran: it is kept.
			return "", core.Errorf(core.CodeConfirmationRequired, "%s appeared while setup ran and was kept", s.path).
				WithHint("leave (Ctrl+C) and run fluzo init, which asks before replacing it")
		}
		return "", err
	}
	backup, err := config.Replace(s.path, data)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(filepath.Dir(s.path), backup); err == nil {
		backup = rel
	}
	return "previous file kept as " + backup, nil
}

func (s *fileSeam) Exclude() (string, error) {
	ws, err := store.ResolveWorkspace(s.ctx, s.root)
	if err != nil {
		return "", err
	}
	path, err := store.AddGitExclude(s.ctx, ws)
	if err != nil {
		return "", err
	}
	if path == "" {
		return "/.fluzodrive/ was already excluded", nil
	}
	return "added /.fluzodrive/ to " + path, nil
}

// scope is the consent scope of the file just written, loaded back the
// way the agent loads it, so the fingerprint is the one serve checks.
func (s *fileSeam) scope() (consent.Scope, error) {
	ws, err := store.ResolveWorkspace(s.ctx, s.root)
	if err != nil {
		return consent.Scope{}, err
	}
	cfg, err := config.Open(config.Options{Workspace: ws.Root, File: s.cfgFile, Overrides: s.overrides})
	if err != nil {
		return consent.Scope{}, err
	}
	return consent.Scope{Workspace: ws, Config: cfg, ConfigFile: s.cfgFile, Overrides: s.overrides}, nil
}

func (s *fileSeam) Review() (setup.Review, error) {
	sc, err := s.scope()
	if err != nil {
		return setup.Review{}, err
	}
	sum := consent.Summarize(sc.Config)
	var rv setup.Review
	for _, d := range sum.Destinations {
		auth := ""
		if d.Auth != "" {
			auth = ", auth " + d.Auth
		}
		rv.Lines = append(rv.Lines, termsafe.Line(fmt.Sprintf("  %-12s %s (%s%s) [%s]", d.Purpose, d.URL, d.Class, auth, d.Key)))
	}
	export := "off"
	if sum.CaptureContent {
		export = "ON: prompts, outputs and tool content go to telemetry"
	}
	rv.Lines = append(rv.Lines, "", "Content export: "+export, "Fingerprint:    "+sum.Fingerprint)
	for _, d := range sum.Cleartext() {
		rv.Cleartext = append(rv.Cleartext, d.URL)
	}
	return rv, nil
}

func (s *fileSeam) Consent(allowHTTP []string) (string, error) {
	sc, err := s.scope()
	if err != nil {
		return "", err
	}
	rec, err := consent.Store{Dir: consent.DefaultDir()}.Grant(sc, consent.HowPrompt, allowHTTP)
	if err != nil {
		return "", err
	}
	return "recorded for " + termsafe.Line(sc.Workspace.Root) + " (" + rec.Fingerprint + ")", nil
}

// Discovery timeouts: a listing is small and answers at once, or not.
const (
	discoverHeaderTimeout = 10 * time.Second
	discoverTotalTimeout  = 15 * time.Second
)

// discoverModels lists the draft endpoint's models with GET /v1/models
// (lib/provider: no redirects, no proxy variables, finite timeouts). The
// key is resolved here, from its reference, and never leaves this call.
func discoverModels(ctx context.Context, req setup.DiscoverRequest) ([]string, error) {
	cfg := req.Config
	key, err := cfg.APIKey("coder", os.Getenv)
	if err != nil {
		return nil, err
	}
	client, err := provider.New(provider.Endpoint{
		BaseURL:  cfg.String("models.coder.base_url"),
		APIKey:   provider.Secret(key),
		Timeouts: provider.Timeouts{Header: discoverHeaderTimeout, Total: discoverTotalTimeout},
	})
	if err != nil {
		return nil, err
	}
	models, err := client.Models(ctx)
	if err != nil {
		return nil, core.AsError(err)
	}
	ids := make([]string, 0, len(models))
	for _, m := range models {
		ids = append(ids, termsafe.Line(strings.TrimSpace(m.ID)))
	}
	return ids, nil
}
