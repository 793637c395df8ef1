package consent

import (
	"net"
	"net/url"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/config"
)

// Transport classes of a destination URL.
const (
	ClassLoopback  = "loopback"  // http or https to localhost or a loopback IP literal
	ClassHTTPS     = "https"     // TLS to any other host
	ClassCleartext = "cleartext" // plain HTTP to a host that is not loopback
)

// Destination is one place the configuration would send data to.
type Destination struct {
	// Key is the setting that names it, e.g. models.coder.base_url.
	Key string `json:"key"`
	// Purpose says what is sent there: "model coder", "laya", "otlp".
	Purpose string `json:"purpose"`
	// URL is the destination with any user, query and fragment removed.
	URL   string `json:"url"`
	Class string `json:"class"`
	// Auth says how requests authenticate ("none", "env SIM_KEY",
	// "credential ref"); never the value.
	Auth string `json:"auth,omitempty"`
}

// Summary is the redacted review of what consent covers: everything the
// fingerprint hashes that a user should read before agreeing.
type Summary struct {
	Fingerprint    string        `json:"fingerprint"`
	Destinations   []Destination `json:"destinations"`
	Grants         []string      `json:"grants"`
	InheritEnv     []string      `json:"inherit_env"`
	EnvNames       []string      `json:"env"`
	CaptureContent bool          `json:"capture_content"`
	Policy         []string      `json:"policy"`
	// ToolBackend is the command tools.backend runs instead of the local
	// fluzo-tool (absent: the local one): it is executed, and the task's
	// files and commands go where it leads.
	ToolBackend []string `json:"tool_backend,omitempty"`
}

// Summarize lists what cfg would contact and allow. Only destinations that
// the runtime uses are listed (the agent model, the Laya model when
// decision.enabled, the OTLP collector when export is enabled); the
// fingerprint still covers every configured entry, so changing an unused
// one asks again too.
func Summarize(cfg *config.Config) Summary {
	s := Summary{Fingerprint: cfg.Fingerprint(), Grants: cfg.Strings("policy.grants"),
		InheritEnv: cfg.Strings("tools.shell.inherit_env"), CaptureContent: cfg.Bool("telemetry.capture_content"),
		ToolBackend: cfg.Strings("tools.backend")}
	if m := cfg.String("agent.model"); m != "" {
		s.Destinations = append(s.Destinations, modelDestination(cfg, m, "base_url", "model "+m))
	}
	if cfg.Bool("decision.enabled") {
		s.Destinations = append(s.Destinations, modelDestination(cfg, cfg.String("decision.model"), "endpoint", "laya"))
	}
	if cfg.Bool("telemetry.export_enabled") {
		raw := cfg.String("telemetry.otlp_endpoint")
		s.Destinations = append(s.Destinations, Destination{Key: "telemetry.otlp_endpoint", Purpose: "otlp", URL: redact(raw), Class: Classify(raw)})
	}
	s.Destinations = append(s.Destinations, mcpDestinations(cfg)...)
	for name := range cfg.StringMap("tools.shell.env") {
		s.EnvNames = append(s.EnvNames, name)
	}
	sort.Strings(s.EnvNames)
	for _, k := range []string{"policy.shell", "policy.tool_network", "policy.git_commit", "policy.git_push", "policy.destructive_commands"} {
		s.Policy = append(s.Policy, k+" = "+cfg.String(k))
	}
	if s.Grants == nil {
		s.Grants = []string{}
	}
	if s.InheritEnv == nil {
		s.InheritEnv = []string{}
	}
	if s.EnvNames == nil {
		s.EnvNames = []string{}
	}
	return s
}

func modelDestination(cfg *config.Config, id, field, purpose string) Destination {
	p := "models." + id + "."
	raw := cfg.String(p + field)
	auth := cfg.String(p + "auth")
	switch auth {
	case config.AuthEnv:
		auth += " " + cfg.String(p+"api_key_env")
	case config.AuthCredential:
		auth += " " + cfg.String(p+"credential_ref")
	}
	return Destination{Key: p + field, Purpose: purpose, URL: redact(raw), Class: Classify(raw), Auth: auth}
}

// Cleartext returns the destinations that need the warned plain-HTTP
// exception.
func (s Summary) Cleartext() []Destination {
	var out []Destination
	for _, d := range s.Destinations {
		if d.Class == ClassCleartext {
			out = append(out, d)
		}
	}
	return out
}

// Classify tells a destination's transport class. An unparsable URL is
// cleartext: it never passes as loopback.
func Classify(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ClassCleartext
	}
	if IsLoopbackHost(u.Hostname()) {
		return ClassLoopback
	}
	if u.Scheme == "https" {
		return ClassHTTPS
	}
	return ClassCleartext
}

// IsLoopbackHost accepts "localhost" and loopback IP literals only; other
// names are not resolved, because DNS could point them anywhere later.
func IsLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// redact keeps scheme, host and path: a URL's user, query and fragment
// may carry secrets and are never shown or stored.
func redact(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "(not a URL)"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}
