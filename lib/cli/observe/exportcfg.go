package observe

import (
	"net/url"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

// exportConfig is what the workspace's .fluzo says about OTLP export. The
// endpoint is reduced to scheme and host: a URL may carry secrets.
type exportConfig struct {
	Configured bool   `json:"configured"`
	Enabled    bool   `json:"enabled"`
	Endpoint   string `json:"endpoint,omitempty"`
	Problem    string `json:"problem,omitempty"`
}

func readExportConfig(ws string) exportConfig {
	cfg, err := config.Load(filepath.Join(ws, ".fluzo"))
	if err != nil {
		if core.CodeOf(err) == core.CodeConfigurationRequired {
			return exportConfig{}
		}
		return exportConfig{Configured: true, Problem: "the .fluzo configuration is invalid (fluzo-admit config validate)"}
	}
	ec := exportConfig{Configured: true, Enabled: cfg.Bool("telemetry.export_enabled")}
	if u, err := url.Parse(cfg.String("telemetry.otlp_endpoint")); err == nil && u.Host != "" {
		ec.Endpoint = u.Scheme + "://" + u.Host
	}
	return ec
}

func (e exportConfig) describe() string {
	switch {
	case e.Problem != "":
		return "unknown: " + e.Problem
	case !e.Configured:
		return "disabled (no .fluzo)"
	case !e.Enabled:
		return "disabled ([telemetry] export_enabled = false); local archive only"
	}
	return "enabled to " + e.Endpoint
}
