package tui

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/sim"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/tui/setup"
)

// lockedBuffer is the simulator's request log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) requests() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), `"type":"request"`)
}

func startSim(t *testing.T) (*sim.Server, *lockedBuffer) {
	t.Helper()
	sc, err := sim.Parse("setup.json", []byte(`{"version":1,"models":["sim","sim-large"],"steps":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	log := &lockedBuffer{}
	s, err := sim.StartWith(context.Background(), sc, sim.Options{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, log
}

// gitRepo is an empty repository with private consent state.
func gitRepo(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	return dir
}

func press(f *setup.Flow, codes ...setup.KeyCode) []setup.Effect {
	var out []setup.Effect
	for _, c := range codes {
		if e := f.Handle(setup.Key{Code: c}); e.Discover != nil {
			out = append(out, e)
		}
	}
	return out
}

func typeInto(f *setup.Flow, s string) {
	for _, r := range s {
		f.Handle(setup.Key{Code: setup.KeyRune, Rune: r})
	}
}

// The whole flow against the real files and a real simulator: nothing
// reaches the endpoint until Ctrl+D, then exactly the model listing; the
// file is valid, excluded and consented the way the agent checks it.
func TestSetupAgainstTheSimulatorContactsItOnlyWhenAsked(t *testing.T) {
	srv, log := startSim(t)
	root := gitRepo(t)
	ctx := context.Background()
	plan, err := planSetup(ctx, root, "", false, true)
	if err != nil || !plan.run {
		t.Fatalf("plan %+v %v", plan, err)
	}
	seam := &fileSeam{ctx: ctx, root: root, path: plan.env.Path}
	f := setup.New(plan.env, seam)
	press(f, setup.KeyEnter, setup.KeyTab) // welcome; focus the base URL
	press(f, setup.KeyClear)
	typeInto(f, srv.BaseURL())
	press(f, setup.KeyTab, setup.KeyTab, setup.KeyRight, setup.KeyLeft, setup.KeyBacktab)
	if n := log.requests(); n != 0 {
		t.Fatalf("%d requests before discovery was asked for", n)
	}
	effects := press(f, setup.KeyDiscover)
	if len(effects) != 1 {
		t.Fatalf("effects %+v", effects)
	}
	models, err := discoverModels(ctx, *effects[0].Discover)
	if err != nil || strings.Join(models, ",") != "sim,sim-large" {
		t.Fatalf("models %v %v", models, err)
	}
	if n := log.requests(); n != 1 || !strings.Contains(log.b.String(), `"outcome":"models"`) {
		t.Fatalf("requests %d: %s", n, log.b.String())
	}
	f.Discovered(effects[0].Discover.Gen, models, nil)
	for i := 0; i < 60 && f.Step() != setup.StepSummary; i++ {
		press(f, setup.KeyEnter)
	}
	for i := 0; i < 3; i++ { // write, exclude, consent
		f.Handle(setup.Key{Code: setup.KeyRune, Rune: 'y'})
	}
	if f.Step() != setup.StepDone {
		t.Fatalf("step %v: %+v", f.Step(), f.View())
	}
	if n := log.requests(); n != 1 {
		t.Fatalf("setup made %d requests, want the one listing", n)
	}
	cfg, err := config.Load(filepath.Join(root, ".fluzo"))
	if err != nil || cfg.String("models.coder.base_url") != srv.BaseURL() || cfg.String("models.coder.model") != "sim" {
		t.Fatalf("written config %v", err)
	}
	exclude, _ := os.ReadFile(filepath.Join(root, ".git", "info", "exclude"))
	if !strings.Contains(string(exclude), "/.fluzodrive/") {
		t.Fatalf("exclude %q", exclude)
	}
	ws, _ := store.ResolveWorkspace(ctx, root)
	if _, err := (consent.Store{Dir: consent.DefaultDir()}).Check(consent.Scope{Workspace: ws, Config: cfg}); err != nil {
		t.Fatalf("consent not recorded as the agent checks it: %v", err)
	}
}

func TestAValidFileSkipsSetupWithoutContactingItsEndpoint(t *testing.T) {
	root := gitRepo(t)
	data := "schema_version = 1\n[models.coder]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"gone\"\n"
	if err := os.WriteFile(filepath.Join(root, ".fluzo"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := planSetup(context.Background(), root, "", false, true)
	if err != nil || plan.run {
		t.Fatalf("a valid file with an unreachable endpoint opened setup: %+v %v", plan, err)
	}
}

func TestAMalformedFileIsDiagnosedAndPreserved(t *testing.T) {
	root := gitRepo(t)
	path := filepath.Join(root, ".fluzo")
	data := []byte("schema_version = 1\n# keep me\n[harness]\nmax_turns = 0\n")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := planSetup(context.Background(), root, "", true, true)
	if err != nil || !plan.run || len(plan.env.Problems) == 0 || plan.env.Problems[0].Key != "harness.max_turns" || plan.env.Problems[0].Line != 4 {
		t.Fatalf("plan %+v %v", plan, err)
	}
	f := setup.New(plan.env, &fileSeam{ctx: context.Background(), root: root, path: path})
	press(f, setup.KeySummary, setup.KeyEnter)
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Fatalf("the malformed file changed:\n%s", after)
	}
	if _, err := planSetup(context.Background(), root, "", false, false); core.CodeOf(err) != core.CodeInvalidConfiguration {
		t.Fatalf("without a terminal: %v", err)
	}
}

func TestWithoutATerminalAMissingFileIsConfigurationRequired(t *testing.T) {
	root := gitRepo(t)
	_, err := planSetup(context.Background(), root, "", false, false)
	if core.CodeOf(err) != core.CodeConfigurationRequired || !strings.Contains(core.AsError(err).Hint, "fluzo init") {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, ".fluzo")); err == nil {
		t.Fatal("a file was written")
	}
}

func TestDiscoveryNeverSendsAKeyItCannotResolve(t *testing.T) {
	srv, log := startSim(t)
	cfg := config.Defaults()
	for k, v := range map[string]string{"models.coder.base_url": srv.BaseURL(), "models.coder.auth": "env", "models.coder.api_key_env": "FLUZO_SETUP_TEST_KEY"} {
		if err := cfg.Override(k, v); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("FLUZO_SETUP_TEST_KEY", "")
	_, err := discoverModels(context.Background(), setup.DiscoverRequest{Config: cfg})
	if core.CodeOf(err) != core.CodeConfigurationRequired || log.requests() != 0 {
		t.Fatalf("err %v, requests %d", err, log.requests())
	}
}

// fluzo init on a valid file: after an explicit y the flow starts from
// its values and replaces it, keeping the old bytes as a backup.
func TestInitReplacesAValidFileKeepingABackup(t *testing.T) {
	root := gitRepo(t)
	path := filepath.Join(root, ".fluzo")
	old := []byte("schema_version = 1\n# mine\n[harness]\nmax_turns = 7\n")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	plan, err := planSetup(ctx, root, "", true, true)
	if err != nil || !plan.run || plan.env.Existing == nil {
		t.Fatalf("plan %+v %v", plan, err)
	}
	f := setup.New(plan.env, &fileSeam{ctx: ctx, root: root, path: path})
	f.Handle(setup.Key{Code: setup.KeyRune, Rune: 'y'})
	press(f, setup.KeySummary, setup.KeySummary)
	if f.Step() != setup.StepExclude {
		t.Fatalf("step %v: %+v", f.Step(), f.View())
	}
	cfg, err := config.Load(path)
	if err != nil || cfg.Int("harness.max_turns") != 7 || bytes.Contains(cfg.Text(), []byte("# mine")) {
		t.Fatalf("replaced file: %v", err)
	}
	backups, _ := filepath.Glob(filepath.Join(root, ".fluzodrive", "backups", ".fluzo.bak-*"))
	if len(backups) != 1 {
		t.Fatalf("backups %v", backups)
	}
	if b, _ := os.ReadFile(backups[0]); !bytes.Equal(b, old) {
		t.Fatalf("backup %q", b)
	}
	if !strings.Contains(strings.Join(f.View().Lines, "\n"), "previous file kept as .fluzodrive/backups/.fluzo.bak-") {
		t.Fatalf("view %q", f.View().Lines)
	}
}

// A file that appears between the start of the flow and the write is
// never replaced: the write fails, says so, and the file is kept.
func TestAFileThatAppearsMeanwhileIsKept(t *testing.T) {
	root := gitRepo(t)
	ctx := context.Background()
	plan, err := planSetup(ctx, root, "", false, true)
	if err != nil || !plan.run {
		t.Fatalf("plan %+v %v", plan, err)
	}
	f := setup.New(plan.env, &fileSeam{ctx: ctx, root: root, path: plan.env.Path})
	press(f, setup.KeySummary)
	theirs := []byte("schema_version = 1\n# written by someone else\n")
	if err := os.WriteFile(plan.env.Path, theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	press(f, setup.KeySummary)
	if f.Step() != setup.StepSummary || !strings.Contains(f.View().Error, "appeared while setup ran and was kept") {
		t.Fatalf("step %v error %q", f.Step(), f.View().Error)
	}
	if after, _ := os.ReadFile(plan.env.Path); !bytes.Equal(after, theirs) {
		t.Fatalf("the file was replaced: %s", after)
	}
}

// A valid .fluzo at the repository's top is found without running git,
// from the top and from a subdirectory: the two git processes of the
// hardened resolution used to sit before every launch's first frame.
func TestAValidFileSkipsSetupWithoutRunningGit(t *testing.T) {
	root := gitRepo(t)
	data := "schema_version = 1\n[models.coder]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"gone\"\n"
	if err := os.WriteFile(filepath.Join(root, ".fluzo"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "src", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	fake := t.TempDir()
	marker := filepath.Join(fake, "git-ran")
	script := "#!/bin/sh\necho \"$@\" >> " + marker + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(fake, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake)
	for _, dir := range []string{root, sub} {
		plan, err := planSetup(context.Background(), dir, "", false, true)
		if err != nil || plan.run {
			t.Fatalf("from %s: plan %+v %v", dir, plan, err)
		}
	}
	if ran, err := os.ReadFile(marker); err == nil {
		t.Fatalf("git ran before the first frame: %s", ran)
	}
}
