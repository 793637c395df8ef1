package config

import (
	"strings"
	"testing"
)

// [tools.shell] entries that fluzo-tool would refuse or drop are refused
// by validation, each with file:line and key: a configured api_key_env
// (whatever it is called), credential-looking names, code injectors and
// Fluzo's own variables. An ordinary name passes.
func TestToolEnvironmentNamingSecretsIsRefusedWithFileAndLine(t *testing.T) {
	text := `schema_version = 1
[models.coder]
base_url = "http://127.0.0.1:9/v1"
model = "sim"
auth = "env"
api_key_env = "SIM_ACCESS"
[tools.shell]
inherit_env = ["HOME", "SIM_ACCESS", "DEPLOY_TOKEN", "AWS_REGION", "LD_PRELOAD", "FLUZO_SOCKET", "GOCACHE"]
env = { SIM_ACCESS = "x", API_SECRET = "y", BASH_ENV = "/tmp/x", OK = "1" }
`
	_, err := Parse([]byte(text), ".fluzo")
	ds := Diagnostics(err)
	want := map[string]string{
		"inherit_env SIM_ACCESS":   "tools.shell.inherit_env:8",
		"inherit_env DEPLOY_TOKEN": "tools.shell.inherit_env:8",
		"inherit_env AWS_REGION":   "tools.shell.inherit_env:8",
		"inherit_env LD_PRELOAD":   "tools.shell.inherit_env:8",
		"inherit_env FLUZO_SOCKET": "tools.shell.inherit_env:8",
		"env SIM_ACCESS":           "tools.shell.env:9",
		"env API_SECRET":           "tools.shell.env:9",
		"env BASH_ENV":             "tools.shell.env:9",
	}
	for what, where := range want {
		key, name, _ := strings.Cut(what, " ")
		found := false
		for _, d := range ds {
			if d.Key == "tools.shell."+key && strings.HasPrefix(d.Problem, name+" ") {
				found = true
				if got := d.Key + ":" + itoa(d.Line); got != where || d.File != ".fluzo" {
					t.Errorf("%s reported at %s:%s, want %s", what, d.File, got, where)
				}
			}
		}
		if !found {
			t.Errorf("%s was accepted; diagnostics: %v", what, ds)
		}
	}
	for _, d := range ds {
		if strings.Contains(d.Problem, "GOCACHE") || strings.Contains(d.Problem, "HOME ") || strings.HasPrefix(d.Problem, "OK ") {
			t.Errorf("an ordinary name was refused: %v", d)
		}
	}
	if len(ds) != len(want) {
		t.Errorf("%d diagnostics, want %d: %v", len(ds), len(want), ds)
	}
}
