package proc

import (
	"strings"
	"testing"
)

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	c := newCapture(10)
	for _, chunk := range []string{"abc", "defgh", strings.Repeat("x", 1000), "vwxyz"} {
		c.Write([]byte(chunk))
	}
	out, truncated, total := c.Result()
	if !truncated || total != 1013 || !strings.HasPrefix(out, "abcde\n[fluzo: 1003 bytes omitted") || !strings.HasSuffix(out, "]\nvwxyz") {
		t.Fatalf("capture = %q %v %d", out, truncated, total)
	}
	small := newCapture(10)
	small.Write([]byte("1234567"))
	if out, tr, _ := small.Result(); out != "1234567" || tr {
		t.Fatalf("small capture = %q %v", out, tr)
	}
}

func TestBuildKeepsOnlyTheBaseline(t *testing.T) {
	env, err := Build([]string{"PATH=.:/usr/bin::bin", "HOME=/h", "LC_CTYPE=C", "AWS_SECRET_ACCESS_KEY=x", "X_TOKEN=y", "EDITOR=vi"},
		EnvPolicy{Set: map[string]string{"A": "1"}, Inherit: []string{"EDITOR", "X_TOKEN"}}, map[string]string{"B": "2"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(env, " ")
	if got != "A=1 B=2 EDITOR=vi HOME=/h LC_CTYPE=C PATH=/usr/bin TERM=dumb" {
		t.Fatalf("env = %s", got)
	}
	if err := (EnvPolicy{Inherit: []string{"GH_TOKEN"}}).Validate(); err == nil {
		t.Fatal("inheriting GH_TOKEN was accepted")
	}
	if _, err := Build(nil, EnvPolicy{}, map[string]string{"LD_PRELOAD": "x"}); err == nil {
		t.Fatal("an explicit LD_PRELOAD was accepted")
	}
}

// A toolchain installed outside HOME is found: its variables reach the
// child without configuration, and a credential never does.
func TestBuildInheritsToolchainVariables(t *testing.T) {
	parent := []string{"PATH=/usr/local/cargo/bin:/usr/bin", "HOME=/home/u", "RUSTUP_HOME=/usr/local/rustup", "CARGO_HOME=/usr/local/cargo",
		"GOPATH=/go", "GOCACHE=/cache/go", "GOMODCACHE=/go/pkg/mod", "GOROOT=/usr/local/go", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
		"JAVA_HOME=/opt/java", "PYTHONPATH=/src", "VIRTUAL_ENV=/venv", "NODE_PATH=/node", "npm_config_cache=/npm",
		"GOPROXY=https://user:pw@proxy.invalid", "CARGO_REGISTRY_TOKEN=t"}
	env, err := Build(parent, EnvPolicy{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := " " + strings.Join(env, " ") + " "
	for _, kv := range parent[2:15] {
		if !strings.Contains(got, " "+kv+" ") {
			t.Errorf("child env lacks %s: %s", kv, got)
		}
	}
	for _, name := range []string{"GOPROXY=", "CARGO_REGISTRY_TOKEN="} {
		if strings.Contains(got, " "+name) {
			t.Errorf("child env has %s: %s", name, got)
		}
	}
	for _, name := range Toolchain {
		if Secret(name) || forbidden(name) {
			t.Errorf("toolchain variable %s is a secret or forbidden name", name)
		}
	}
}

func TestLookPathIgnoresRelativeEntries(t *testing.T) {
	if _, err := LookPath("sh", []string{"PATH=.:bin"}); err == nil {
		t.Fatal("a relative PATH entry was searched")
	}
	if p, err := LookPath("sh", []string{"PATH=/nonexistent:/bin:/usr/bin"}); err != nil || !strings.HasSuffix(p, "/sh") {
		t.Fatalf("LookPath(sh) = %q, %v", p, err)
	}
}
