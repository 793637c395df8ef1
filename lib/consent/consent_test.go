package consent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

func parse(t *testing.T, text string) *config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte("schema_version = 1\n"+text), ".fluzo")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

var ws = store.Workspace{Root: "/src/project", Dev: 64, Inode: 1234}

func TestClassify(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080/v1":   ClassLoopback,
		"http://[::1]:8080/v1":       ClassLoopback,
		"http://localhost/v1":        ClassLoopback,
		"https://api.example.com/v1": ClassHTTPS,
		"http://10.0.0.5:8080/v1":    ClassCleartext,
		"http://localhost.evil/v1":   ClassCleartext,
		"http://127.0.0.1.nip.io/v1": ClassCleartext,
		"::not a url":                ClassCleartext,
	} {
		if got := Classify(raw); got != want {
			t.Errorf("Classify(%q) = %s, want %s", raw, got, want)
		}
	}
}

func TestSummaryListsWhatIsUsedRedacted(t *testing.T) {
	cfg := parse(t, `[models.coder]
base_url = "https://api.example.com/v1?token=abc#frag"
model = "m"
auth = "env"
api_key_env = "EXAMPLE_KEY"
[telemetry]
export_enabled = true
otlp_endpoint = "http://10.1.1.1:4318"
[tools.shell]
inherit_env = ["GOCACHE"]
env = { MODE = "ci" }
[policy]
grants = ["exec:cargo test"]
`)
	s := Summarize(cfg)
	if len(s.Destinations) != 2 || s.Destinations[0].URL != "https://api.example.com/v1" || s.Destinations[0].Auth != "env EXAMPLE_KEY" {
		t.Fatalf("destinations: %+v", s.Destinations)
	}
	if c := s.Cleartext(); len(c) != 1 || c[0].Key != "telemetry.otlp_endpoint" {
		t.Errorf("cleartext: %+v", c)
	}
	if strings.Join(s.Grants, ",") != "exec:cargo test" || strings.Join(s.InheritEnv, ",") != "GOCACHE" || strings.Join(s.EnvNames, ",") != "MODE" {
		t.Errorf("summary: %+v", s)
	}
}

func TestGrantThenCheckAndScope(t *testing.T) {
	st := Store{Dir: t.TempDir()}
	cfg := parse(t, "[models.coder]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n")
	sc := Scope{Workspace: ws, Config: cfg}
	_, err := st.Check(sc)
	if core.CodeOf(err) != core.CodeConfigurationRequired || !strings.Contains(err.Error(), "model coder at http://127.0.0.1:9/v1 (loopback)") {
		t.Fatalf("loopback without consent: %v", err)
	}
	if h := core.AsError(err).Hint; !strings.Contains(h, "fluzo-admit -C /src/project consent grant") {
		t.Errorf("hint %q does not name the command", h)
	}
	if _, err := st.Grant(sc, HowYes, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Check(sc); err != nil {
		t.Fatalf("after grant: %v", err)
	}
	// Another workspace identity (moved, cloned, re-created) is not covered.
	for _, other := range []store.Workspace{{Root: "/src/copy", Dev: 64, Inode: 1234}, {Root: ws.Root, Dev: 64, Inode: 99}} {
		if _, err := st.Check(Scope{Workspace: other, Config: cfg}); err == nil {
			t.Errorf("consent of %v covered %v", ws, other)
		}
	}
	// A changed destination is another fingerprint.
	moved := parse(t, "[models.coder]\nbase_url = \"http://127.0.0.1:10/v1\"\nmodel = \"m\"\n")
	if _, err := st.Check(Scope{Workspace: ws, Config: moved}); err == nil {
		t.Error("a changed destination kept consent")
	}
}

func TestARecordCopiedFromElsewhereIsNotConsent(t *testing.T) {
	st := Store{Dir: t.TempDir()}
	cfg := parse(t, "[models.coder]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n")
	other := store.Workspace{Root: "/elsewhere", Dev: 1, Inode: 2}
	rec, err := st.Grant(Scope{Workspace: other, Config: cfg}, HowYes, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(st.recordPath(other, rec.Fingerprint))
	target := st.recordPath(ws, rec.Fingerprint)
	os.MkdirAll(filepath.Dir(target), 0o700)
	os.WriteFile(target, data, 0o600)
	if _, err := st.Check(Scope{Workspace: ws, Config: cfg}); err == nil {
		t.Fatal("a record naming another workspace was taken as consent")
	}
	os.WriteFile(target, []byte("{half a rec"), 0o600)
	if _, err := st.Check(Scope{Workspace: ws, Config: cfg}); err == nil {
		t.Fatal("a damaged record was taken as consent")
	}
}

func TestRecordsAreOwnerOnly(t *testing.T) {
	st := Store{Dir: filepath.Join(t.TempDir(), "fluzo", "consent")}
	cfg := parse(t, "[models.coder]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n")
	rec, err := st.Grant(Scope{Workspace: ws, Config: cfg}, HowYes, nil)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{st.Dir: 0o700, st.workspaceDir(ws): 0o700, st.recordPath(ws, rec.Fingerprint): 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %o", path, fi.Mode(), err, want)
		}
	}
	entries, _ := os.ReadDir(st.workspaceDir(ws))
	if len(entries) != 1 {
		t.Errorf("left temporary files: %v", entries)
	}
}

func TestPlainHTTPNeedsTheEndpointScopedException(t *testing.T) {
	st := Store{Dir: t.TempDir()}
	cfg := parse(t, "[models.coder]\nbase_url = \"http://10.0.0.5:8080/v1\"\nmodel = \"m\"\n")
	sc := Scope{Workspace: ws, Config: cfg}
	_, err := st.Grant(sc, HowFlag, nil)
	if core.CodeOf(err) != core.CodeConfigurationRequired || !strings.Contains(core.AsError(err).Hint, "--allow-http http://10.0.0.5:8080/v1") {
		t.Fatalf("cleartext without exception: %v", err)
	}
	if _, err := st.Grant(sc, HowYes, []string{"http://10.0.0.6:8080/v1"}); core.CodeOf(err) != core.CodeUsage {
		t.Fatalf("an exception for another endpoint: %v", err)
	}
	if _, err := st.Check(sc); err == nil {
		t.Fatal("consent recorded without the exception")
	}
	rec, err := st.Grant(sc, HowYes, []string{"http://10.0.0.5:8080/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Allows("http://10.0.0.5:8080/v1") || rec.Allows("http://10.0.0.6:8080/v1") {
		t.Errorf("exceptions: %v", rec.Cleartext)
	}
	if _, err := st.Check(sc); err != nil {
		t.Fatalf("with the exception: %v", err)
	}
}

func TestRevokeRemovesEveryFingerprintOfTheWorkspaceOnly(t *testing.T) {
	st := Store{Dir: t.TempDir()}
	a := parse(t, "[models.coder]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n")
	b := parse(t, "[models.coder]\nbase_url = \"http://127.0.0.1:10/v1\"\nmodel = \"m\"\n")
	other := store.Workspace{Root: "/other", Dev: 1, Inode: 1}
	for _, sc := range []Scope{{Workspace: ws, Config: a}, {Workspace: ws, Config: b}, {Workspace: other, Config: a}} {
		if _, err := st.Grant(sc, HowYes, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := st.Revoke(ws); n != 2 || err != nil {
		t.Fatalf("revoked %d, %v", n, err)
	}
	if _, err := st.Check(Scope{Workspace: ws, Config: a}); err == nil {
		t.Error("consent survived revoke")
	}
	if _, err := st.Check(Scope{Workspace: other, Config: a}); err != nil {
		t.Errorf("revoke reached another workspace: %v", err)
	}
}

func TestGrantCommandQuotesForTheShell(t *testing.T) {
	sc := Scope{Workspace: store.Workspace{Root: "/src/my project"}, ConfigFile: "ci.fluzo", Overrides: []string{"models.coder.model=a b"}}
	got := sc.GrantCommand(Summary{})
	want := `fluzo-admit -C '/src/my project' --config ci.fluzo --set 'models.coder.model=a b' consent grant`
	if got != want {
		t.Errorf("GrantCommand = %s, want %s", got, want)
	}
}

func TestDefaultDirIsPrivateUserState(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/x/state")
	if got := DefaultDir(); got != "/x/state/fluzo/consent" {
		t.Errorf("DefaultDir = %s", got)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if got := DefaultDir(); got != "/home/u/.local/state/fluzo/consent" {
		t.Errorf("DefaultDir without XDG_STATE_HOME = %s", got)
	}
}
