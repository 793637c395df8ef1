package envname

import (
	"slices"
	"testing"
)

func TestCredentialNames(t *testing.T) {
	for _, n := range []string{"OPENAI_API_KEY", "DEPLOY_KEY", "GITHUB_TOKEN", "my_service_token", "DB_PASSWORD", "PGPASSWORD",
		"CLIENT_SECRET", "SECRET_SAUCE", "AWS_PROFILE", "AWS_SECRET_ACCESS_KEY", "OTEL_EXPORTER_OTLP_HEADERS", "SSH_AUTH_SOCK",
		"NETRC", "REGISTRY_AUTH", "GOOGLE_APPLICATION_CREDENTIALS", "FLUZO_REGISTRY_PASSWORD"} {
		if !Credential(n) {
			t.Errorf("%s is not recognised as credential-bearing", n)
		}
	}
	for _, n := range []string{"PATH", "HOME", "LANG", "GOCACHE", "CARGO_HOME", "RUSTUP_TOOLCHAIN", "TERM", "KEYBOARD", "FLUZO_TEST_PROFILE", "VISIBLE_MARKER"} {
		if Credential(n) {
			t.Errorf("%s is flagged as a credential", n)
		}
	}
}

func TestUninheritableAddsInjectorsAndFluzosOwn(t *testing.T) {
	for _, n := range []string{"LD_PRELOAD", "BASH_ENV", "BASH_FUNC_x%%", "FLUZO_TEST_PROFILE", "API_TOKEN"} {
		if !Uninheritable(n) {
			t.Errorf("%s may be inherited", n)
		}
	}
	if Uninheritable("GOFLAGS") || Injecting("PATH") {
		t.Error("an ordinary variable is refused")
	}
}

func TestScrubDropsCredentialsAndTheNamedKeyVariables(t *testing.T) {
	env := []string{"PATH=/bin", "SIM_ACCESS=k", "DEPLOY_TOKEN=t", "OTEL_EXPORTER_OTLP_HEADERS=a=b", "FLUZO_TEST_PROFILE=fault", "HOME=/h", "NOEQUALS"}
	got := Scrub(env, []string{"SIM_ACCESS"})
	want := []string{"PATH=/bin", "FLUZO_TEST_PROFILE=fault", "HOME=/h", "NOEQUALS"}
	if !slices.Equal(got, want) {
		t.Errorf("Scrub = %v, want %v", got, want)
	}
}
