package telemetry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

const composeDir = "../../share/compose"

type composeFile struct {
	Services map[string]struct {
		Image       string   `yaml:"image"`
		Ports       []string `yaml:"ports"`
		Volumes     []string `yaml:"volumes"`
		EnvFile     []string `yaml:"env_file"`
		Environment map[string]string
		Privileged  bool   `yaml:"privileged"`
		NetworkMode string `yaml:"network_mode"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

func loadYAML(t *testing.T, rel string, into any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(composeDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, into); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

var pinnedImage = regexp.MustCompile(`^[a-z0-9./-]+:v?[0-9]+\.[0-9]+\.[0-9]+$`)

func TestComposeStackIsPinnedLoopbackOnlyAndReadOnly(t *testing.T) {
	var c composeFile
	loadYAML(t, "compose.yaml", &c)
	want := []string{"collector", "tempo", "loki", "prometheus", "grafana"}
	if len(c.Services) != len(want) {
		t.Fatalf("services = %d, want %v", len(c.Services), want)
	}
	published := map[string]bool{}
	for _, name := range want {
		s, ok := c.Services[name]
		if !ok {
			t.Fatalf("service %s missing", name)
		}
		if !pinnedImage.MatchString(s.Image) || strings.Contains(s.Image, "latest") {
			t.Errorf("%s image %q is not pinned to a version", name, s.Image)
		}
		if s.Privileged || s.NetworkMode == "host" {
			t.Errorf("%s is privileged or on the host network", name)
		}
		for _, p := range s.Ports {
			if !strings.HasPrefix(p, "127.0.0.1:") {
				t.Errorf("%s publishes %q beyond loopback", name, p)
			}
			published[p[strings.LastIndex(p, ":")+1:]] = true
		}
		for _, v := range s.Volumes {
			src, dst, _ := strings.Cut(v, ":")
			switch {
			case strings.Contains(v, "docker.sock"), strings.Contains(v, ".fluzodrive"), strings.Contains(v, "sqlite"),
				strings.Contains(v, "auth.toml"), src == "." || src == ".." || src == "/" || strings.HasPrefix(src, "../"):
				t.Errorf("%s mounts forbidden %q", name, v)
			case strings.HasPrefix(src, "./"):
				if !strings.HasSuffix(v, ":ro") {
					t.Errorf("%s config mount %q is not read-only", name, v)
				}
				if _, err := os.Stat(filepath.Join(composeDir, src)); err != nil {
					t.Errorf("%s mounts missing %s", name, src)
				}
			default:
				if _, ok := c.Volumes[src]; !ok {
					t.Errorf("%s volume %q is not a named volume (dst %s)", name, src, dst)
				}
			}
		}
	}
	if len(published) != 3 || !published["3000"] || !published["4317"] || !published["4318"] {
		t.Errorf("published ports = %v, want only 3000, 4317, 4318", published)
	}
	g := c.Services["grafana"]
	if g.Environment["GF_AUTH_ANONYMOUS_ENABLED"] != "false" || len(g.EnvFile) != 1 || g.EnvFile[0] != "grafana.env" {
		t.Errorf("grafana auth: env_file %v anonymous %q", g.EnvFile, g.Environment["GF_AUTH_ANONYMOUS_ENABLED"])
	}
	ignore, _ := os.ReadFile(filepath.Join(composeDir, ".gitignore"))
	if !strings.Contains(string(ignore), "grafana.env\n") {
		t.Error("grafana.env is not git-ignored")
	}
	example, err := os.ReadFile(filepath.Join(composeDir, "grafana.env.example"))
	if err != nil || !strings.Contains(string(example), "GF_SECURITY_ADMIN_PASSWORD=") {
		t.Error("grafana.env.example missing or without the password key")
	}
}

func TestComposeConfigsParseAndWirePipelines(t *testing.T) {
	var col struct {
		Service struct {
			Pipelines map[string]struct {
				Receivers []string `yaml:"receivers"`
				Exporters []string `yaml:"exporters"`
			} `yaml:"pipelines"`
		} `yaml:"service"`
		Exporters map[string]map[string]any `yaml:"exporters"`
	}
	loadYAML(t, "collector/config.yaml", &col)
	wantExp := map[string]string{"traces": "otlp/tempo", "logs": "otlphttp/loki", "metrics": "prometheus"}
	for sig, exp := range wantExp {
		p := col.Service.Pipelines[sig]
		if len(p.Receivers) != 1 || p.Receivers[0] != "otlp" || len(p.Exporters) != 1 || p.Exporters[0] != exp {
			t.Errorf("pipeline %s = %+v, want otlp -> %s", sig, p, exp)
		}
		if _, ok := col.Exporters[exp]; !ok {
			t.Errorf("exporter %s not configured", exp)
		}
	}
	if ep, _ := col.Exporters["otlphttp/loki"]["endpoint"].(string); !strings.HasPrefix(ep, "http://loki:") {
		t.Errorf("loki endpoint %q should use the service name", ep)
	}
	for _, f := range []string{"tempo/tempo.yaml", "loki/loki.yaml", "prometheus/prometheus.yml",
		"grafana/provisioning/datasources/datasources.yaml", "grafana/provisioning/dashboards/dashboards.yaml"} {
		var any map[string]any
		loadYAML(t, f, &any)
		if len(any) == 0 {
			t.Errorf("%s is empty", f)
		}
	}
	var ds struct {
		Datasources []struct {
			UID  string `yaml:"uid"`
			Type string `yaml:"type"`
			URL  string `yaml:"url"`
		} `yaml:"datasources"`
	}
	loadYAML(t, "grafana/provisioning/datasources/datasources.yaml", &ds)
	types := map[string]bool{}
	for _, d := range ds.Datasources {
		types[d.Type] = true
		if strings.Contains(d.URL, "localhost") || strings.Contains(d.URL, "127.0.0.1") {
			t.Errorf("datasource %s uses %s; containers must use service names", d.UID, d.URL)
		}
	}
	if !types["prometheus"] || !types["tempo"] || !types["loki"] {
		t.Errorf("datasources = %v", types)
	}
}

func TestComposeDashboardsQueryOurMetricsWithoutIDLabels(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(composeDir, "grafana/dashboards/*.json"))
	if len(files) < 3 {
		t.Fatalf("dashboards = %v", files)
	}
	all := ""
	for _, f := range files {
		b, _ := os.ReadFile(f)
		var d struct {
			UID    string `json:"uid"`
			Panels []struct {
				Targets []struct {
					Expr string `json:"expr"`
				} `json:"targets"`
			} `json:"panels"`
		}
		if err := json.Unmarshal(b, &d); err != nil || d.UID == "" || len(d.Panels) == 0 {
			t.Fatalf("%s: %v", f, err)
		}
		for _, p := range d.Panels {
			for _, tg := range p.Targets {
				all += tg.Expr + "\n"
			}
		}
	}
	for _, m := range []string{"fluzo_task_outcomes_total", "gen_ai_client_operation_duration_seconds_bucket", "gen_ai_client_token_usage",
		"fluzo_permission_outcomes_total", "fluzo_provider_first_output_duration_seconds_bucket", "fluzo_laya_observations_total", "fluzo_laya_agreement_total", "fluzo_telemetry_dropped_total", "otelcol_exporter_send_failed_spans_total"} {
		if !strings.Contains(all, m) {
			t.Errorf("no dashboard queries %s", m)
		}
	}
	for _, bad := range []string{"session", "task_id", "trace_id"} {
		if strings.Contains(all, bad) {
			t.Errorf("a dashboard query uses %s as a label", bad)
		}
	}
}
