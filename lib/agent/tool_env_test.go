package agent

import (
	"slices"
	"testing"

	"github.com/josecorral/fluzo/lib/config"
)

// fluzo-tool's environment lacks every configured api_key_env, whatever it
// is called, and every credential-looking variable; the rest (toolchains,
// test profiles) passes, so commands still find their tools.
func TestToolServerEnvCarriesNoKey(t *testing.T) {
	cfg, err := config.Parse([]byte(`schema_version = 1
[models.coder]
base_url = "http://127.0.0.1:9/v1"
model = "m"
auth = "env"
api_key_env = "SIM_ACCESS"
[models.other]
base_url = "http://127.0.0.1:9/v1"
model = "m"
auth = "env"
api_key_env = "PLAIN_NAME"
`), ".fluzo")
	if err != nil {
		t.Fatal(err)
	}
	w := &Owner{Config: cfg}
	got := w.toolServerEnv([]string{"PATH=/bin", "SIM_ACCESS=k1", "PLAIN_NAME=k2", "DEPLOY_TOKEN=t", "OTEL_EXPORTER_OTLP_HEADERS=a=b", "GOCACHE=/c", "FLUZO_TEST_PROFILE=fault"})
	want := []string{"PATH=/bin", "GOCACHE=/c", "FLUZO_TEST_PROFILE=fault"}
	if !slices.Equal(got, want) {
		t.Errorf("fluzo-tool environment = %v, want %v", got, want)
	}
}
