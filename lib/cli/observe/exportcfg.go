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
}

// readExportConfig reads the workspace's .fluzo. No file means export is
// off; an invalid file is refused with the same diagnostics (exit 3) as
// every other binary gives, rather than reported as valid.
func readExportConfig(ws string) (exportConfig, error) {
	cfg, err := config.Load(filepath.Join(ws, ".fluzo"))
	if core.CodeOf(err) == core.CodeConfigurationRequired {
		return exportConfig{}, nil
	}
	if err != nil {
		return exportConfig{}, err
	}
	ec := exportConfig{Configured: true, Enabled: cfg.Bool("telemetry.export_enabled")}
	if u, err := url.Parse(cfg.String("telemetry.otlp_endpoint")); err == nil && u.Host != "" {
		ec.Endpoint = u.Scheme + "://" + u.Host
	}
	return ec, nil
}

func (e exportConfig) describe() string {
	switch {
	case !e.Configured:
		return "disabled (no .fluzo)"
	case !e.Enabled:
		return "disabled ([telemetry] export_enabled = false); local archive only"
	}
	return "enabled to " + e.Endpoint
}
