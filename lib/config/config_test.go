package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// prdExample is PRD §27's example configuration, verbatim: every key in it
// must be supported.
const prdExample = `schema_version = 1

[project]
name = "my-project"

[agent]
runtime = "native"
model = "coder"

[models.coder]
provider = "openai_compatible"
base_url = "http://127.0.0.1:8080/v1"
model = "flash-halogen"
auth = "none"
context_window = 32768
max_output_tokens = 4096
capacity_id = "local-flash"
pool = "local_server"
max_in_flight = 1

[models.laya]
provider = "laya_systemone"
endpoint = "http://127.0.0.1:8080/upstream/laya/v1/systemone"
auth = "none"
capacity_id = "local-laya"
pool = "local_server"
max_in_flight = 1

[capacity_pools.local_server]
max_in_flight = 1
foreground_reserved_slots = 1
queue_capacity = 8
queue_timeout_seconds = 30

[decision]
enabled = false
mode = "shadow"
model = "laya"
timeout_seconds = 5
max_observations_per_task = 30
failure_pause_threshold = 3

[harness]
max_turns = 30
max_active_seconds = 1200
shell_timeout_seconds = 120
provider_retries = 2
max_tool_calls = 100
max_total_tokens = 200000

[tools.shell]
stdin = "closed"
termination_grace_seconds = 5
inherit_env = []
env = { RUST_BACKTRACE = "1" }

[policy]
shell = "ask"
tool_network = "deny"
git_commit = "ask"
git_push = "ask"

[context]
compaction_threshold = 0.8
compaction_max_output_tokens = 2048
tool_context_max_bytes = 65536
tool_capture_max_bytes = 2097152

[storage]
auto_expire = false
session_max_bytes = 10737418240
diagnostic_max_bytes = 2147483648
min_free_bytes = 1073741824

[telemetry]
export_enabled = false
otlp_protocol = "http/protobuf"
otlp_endpoint = "http://127.0.0.1:4318"
capture_content = false

[tui]
theme = "default"
animation_fps = 60
reduced_motion = false
dev_menu = false

[tui.notifications]
desktop_enabled = false
duration_seconds = 5
max_visible = 3

[tui.flags]
render_diagnostics = false
`

func TestPRDExampleLoadsWithEveryKeyFromTheFile(t *testing.T) {
	cfg, err := Parse([]byte(prdExample), ".fluzo")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range locate(prdExample) {
		if l.Header {
			continue
		}
		n++
		v, ok := cfg.Lookup(l.Key)
		if !ok || v.Source != SourceFile || v.Line != l.Start+1 {
			t.Errorf("%s: got %+v, want source file at line %d", l.Key, v, l.Start+1)
		}
	}
	if n < 60 {
		t.Fatalf("located only %d keys", n)
	}
	if got := cfg.StringMap("tools.shell.env"); got["RUST_BACKTRACE"] != "1" {
		t.Errorf("env = %v", got)
	}
	if cfg.Int("storage.session_max_bytes") != 10737418240 {
		t.Error("large integer lost")
	}
}

func TestRenderedDefaultsRoundTrip(t *testing.T) {
	def := Defaults()
	text := Render(def)
	cfg, err := Parse(text, "init")
	if err != nil {
		t.Fatalf("rendered defaults do not validate: %v\n%s", err, text)
	}
	for _, k := range def.Keys() {
		want, _ := def.Lookup(k)
		got, ok := cfg.Lookup(k)
		if !ok || !reflect.DeepEqual(got.Value, want.Value) {
			t.Errorf("%s: rendered %v, default %v", k, got.Value, want.Value)
		}
	}
	for _, s := range Settings() {
		if !strings.Contains(s.Key, "*") && cfg.Source(s.Key) != SourceFile {
			t.Errorf("%s is not written explicitly by init", s.Key)
		}
		if s.Description == "" || s.Privacy == "" || s.Apply == "" {
			t.Errorf("%s lacks metadata", s.Key)
		}
	}
}

func diagnose(t *testing.T, text string) []Diagnostic {
	t.Helper()
	_, err := Parse([]byte(text), "ws/.fluzo")
	if err == nil {
		t.Fatalf("accepted:\n%s", text)
	}
	if core.CodeOf(err) != core.CodeInvalidConfiguration {
		t.Fatalf("code %s", core.CodeOf(err))
	}
	ds := Diagnostics(err)
	if len(ds) == 0 {
		t.Fatalf("no diagnostics in %v", err)
	}
	return ds
}

func TestDiagnosticsCarryFileLineKeyAndValidRange(t *testing.T) {
	cases := []struct {
		name, text, key, problem, valid string
		line                            int
	}{
		{"unknown key", "schema_version = 1\n[harness]\nmax_turnz = 3\n", "harness.max_turnz", "unknown key", "max_turns", 3},
		{"unknown table", "schema_version = 1\n[budget]\nx = 1\n", "budget", "unknown key", "harness", 2},
		{"wrong type", "schema_version = 1\n\n[harness]\nmax_turns = \"30\"\n", "harness.max_turns", "expected an integer", "1 to 10000", 4},
		{"out of range", "schema_version = 1\n[tui]\nanimation_fps = 61\n", "tui.animation_fps", "out of range", "0 to 60", 3},
		{"bad option", "schema_version = 1\n[policy]\nshell = \"maybe\"\n", "policy.shell", "not a supported value", `"ask"`, 3},
		{"schema version", "schema_version = 2\n", "schema_version", "unsupported schema_version", "1", 1},
		{"missing version", "[harness]\nmax_turns = 3\n", "schema_version", "does not declare", "1", 0},
		{"yolo is never a setting", "schema_version = 1\nyolo = true\n", "yolo", "unknown key", "schema_version", 2},
		{"empty file", "", "schema_version", "does not declare", "1", 0},
		{"literal key", "schema_version = 1\n[models.coder]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\napi_key = \"sk-123\"\n", "models.coder.api_key", "literal credentials", "api_key_env", 5},
		{"key in env name", "schema_version = 1\n[models.coder]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\nauth = \"env\"\napi_key_env = \"sk-live-abc.def\"\n", "models.coder.api_key_env", "literal credentials", "NAME", 6},
		{"url credentials", "schema_version = 1\n[models.coder]\nbase_url = \"http://u:p@h/v1\"\nmodel = \"m\"\n", "models.coder.base_url", "must not carry credentials", "", 3},
		{"secret in env", "schema_version = 1\n[tools.shell]\nenv = { GITHUB_TOKEN = \"x\" }\n", "tools.shell.env", "looks like a secret", "", 3},
		{"reserved > pool", "schema_version = 1\n[capacity_pools.local_server]\nmax_in_flight = 1\nforeground_reserved_slots = 2\n", "capacity_pools.local_server.foreground_reserved_slots", "reserves 2", "max_in_flight", 4},
		{"missing model", "schema_version = 1\n[agent]\nmodel = \"big\"\n", "agent.model", "no model named", "coder", 3},
		{"missing pool", "schema_version = 1\n[models.coder]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\npool = \"gpu\"\n", "models.coder.pool", "no capacity pool", "local_server", 5},
		{"env without name", "schema_version = 1\n[models.coder]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\nauth = \"env\"\n", "models.coder.api_key_env", "needs api_key_env", "", 2},
		{"output >= window", "schema_version = 1\n[models.coder]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\ncontext_window = 4096\nmax_output_tokens = 4096\n", "models.coder.max_output_tokens", "reserves 4096", "less than", 6},
		{"shadow alias", "schema_version = 1\n[models.coder]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\ncapacity_id = \"x\"\n[models.laya]\nprovider = \"laya_systemone\"\nendpoint = \"http://h/l\"\ncapacity_id = \"x\"\n", "models.laya.capacity_id", "shadow model", "", 9},
		{"syntax", "schema_version = 1\n[harness\n", "", "TOML syntax error", "TOML", 2},
		{"shell longer than task", "schema_version = 1\n[harness]\nmax_active_seconds = 60\nshell_timeout_seconds = 120\n", "harness.shell_timeout_seconds", "longer", "max_active_seconds", 4},
		{"no input capacity", "schema_version = 1\n[context]\noverhead_tokens = 30000\n", "context.overhead_tokens", "no input capacity", "", 3},
		{"auto expire", "schema_version = 1\n[storage]\nauto_expire = true\n", "storage.auto_expire", "not supported", "false", 3},
		{"bad grant spec", "schema_version = 1\n[policy]\n\ngrants = [\"exec:make\", \"bogus:::\"]\n", "policy.grants", `grant "bogus:::": unknown action bogus`, "exec:cargo test", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := diagnose(t, c.text)
			d := ds[0]
			if d.Key != c.key || !strings.Contains(d.Problem, c.problem) || !strings.Contains(d.Valid, c.valid) || d.Line != c.line || d.File != "ws/.fluzo" {
				t.Errorf("got %+v (%s)", d, d)
			}
			if strings.Contains(d.String(), "sk-") {
				t.Errorf("diagnostic echoes a credential: %s", d)
			}
		})
	}
}

func TestPrecedenceDefaultsFileCLI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".fluzo")
	os.WriteFile(path, []byte("schema_version = 1\n[harness]\nmax_turns = 12\nmax_tool_calls = 50\n"), 0o644)
	t.Setenv("FLUZO_HARNESS_MAX_TURNS", "99")
	cfg, err := Open(Options{Workspace: dir, Overrides: []string{"harness.max_tool_calls=7"}})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]struct {
		v   int64
		src Source
	}{
		"harness.max_turns":        {12, SourceFile},
		"harness.max_tool_calls":   {7, SourceCLI},
		"harness.provider_retries": {2, SourceDefault},
	} {
		if cfg.Int(key) != want.v || cfg.Source(key) != want.src {
			t.Errorf("%s = %d from %s, want %d from %s", key, cfg.Int(key), cfg.Source(key), want.v, want.src)
		}
	}
	if v, _ := cfg.Lookup("harness.max_turns"); v.Line != 3 || v.File != path {
		t.Errorf("provenance %+v", v)
	}
	_, err = Open(Options{Workspace: dir, Overrides: []string{"harness.max_turns=0"}})
	if core.CodeOf(err) != core.CodeInvalidConfiguration || !strings.Contains(err.Error(), "command-line override") {
		t.Errorf("bad override: %v", err)
	}
	_, err = Open(Options{Workspace: t.TempDir()})
	if core.CodeOf(err) != core.CodeConfigurationRequired {
		t.Errorf("missing file: %v", err)
	}
	// An override may break a combination: validated together.
	_, err = Open(Options{Workspace: dir, Overrides: []string{"capacity_pools.local_server.foreground_reserved_slots=3"}})
	if core.CodeOf(err) != core.CodeInvalidConfiguration {
		t.Errorf("combination after override: %v", err)
	}
}

func TestDeclaringModelsReplacesDefaultEntries(t *testing.T) {
	cfg, err := Parse([]byte("schema_version = 1\n[agent]\nmodel = \"big\"\n[models.big]\nbase_url = \"https://h/v1\"\nmodel = \"m\"\nauth = \"env\"\napi_key_env = \"BIG_KEY\"\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.IDs("models"); !reflect.DeepEqual(got, []string{"big"}) {
		t.Errorf("models = %v", got)
	}
	m, _ := cfg.Model("big")
	if m.CapacityID != "big" || m.Pool != "local_server" || m.MaxInFlight != 1 {
		t.Errorf("model %+v", m)
	}
	key, err := cfg.APIKey("big", func(n string) string { return map[string]string{"BIG_KEY": "s3cret"}[n] })
	if key != "s3cret" || err != nil {
		t.Errorf("api key %q %v", key, err)
	}
	if _, err := cfg.APIKey("big", func(string) string { return "" }); core.CodeOf(err) != core.CodeConfigurationRequired {
		t.Errorf("empty env: %v", err)
	}
}

func TestCredentialFileMustBePrivateAndEndpointScoped(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	cfg, err := Parse([]byte("schema_version = 1\n[models.coder]\nbase_url = \"https://h/v1\"\nmodel = \"m\"\nauth = \"credential\"\ncredential_ref = \"h\"\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(xdg, "fluzo"), 0o700)
	path := filepath.Join(xdg, "fluzo", "auth.toml")
	os.WriteFile(path, []byte("[credentials.h]\nendpoint = \"https://h/v1\"\napi_key = \"k1\"\n"), 0o644)
	if _, err := cfg.APIKey("coder", os.Getenv); err == nil || !strings.Contains(err.Error(), "chmod 600") && !strings.Contains(core.AsError(err).Hint, "chmod 600") {
		t.Errorf("world-readable auth file accepted: %v", err)
	}
	os.Chmod(path, 0o600)
	if k, err := cfg.APIKey("coder", os.Getenv); k != "k1" || err != nil {
		t.Errorf("got %q %v", k, err)
	}
	os.WriteFile(path, []byte("[credentials.h]\nendpoint = \"https://other/v1\"\napi_key = \"k1\"\n"), 0o600)
	if _, err := cfg.APIKey("coder", os.Getenv); err == nil || strings.Contains(err.Error(), "k1") {
		t.Errorf("endpoint scope: %v", err)
	}
}

func TestFingerprintTracksOnlySecurityRelevantValues(t *testing.T) {
	base := Defaults()
	fp := base.Fingerprint()
	harmless := Defaults()
	harmless.Override("tui.animation_fps", "15")
	harmless.Override("harness.max_turns", "3")
	if harmless.Fingerprint() != fp {
		t.Error("a harmless change invalidated consent")
	}
	for key, value := range map[string]string{
		"models.coder.base_url":     "http://10.0.0.1/v1",
		"policy.grants":             `["exec:make"]`,
		"tools.shell.inherit_env":   `["HOME"]`,
		"telemetry.capture_content": "true",
	} {
		c := Defaults()
		if err := c.Override(key, value); err != nil {
			t.Fatal(err)
		}
		if c.Fingerprint() == fp {
			t.Errorf("%s change kept the fingerprint", key)
		}
	}
	if got := base.Effective()["harness.max_turns"]; got != int64(30) {
		t.Errorf("effective %v", got)
	}
}
