package demo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	cliadmit "github.com/josecorral/fluzo/lib/cli/admit"
	clisim "github.com/josecorral/fluzo/lib/cli/sim"
)

// TestMain lets the test binary act as fluzo-sim and fluzo-admit: the
// demo starts the simulator and records its consent as child processes
// with those names.
func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case "fluzo-sim":
		os.Exit(clisim.Main())
	case "fluzo-admit":
		os.Exit(cliadmit.Main())
	}
	os.Exit(m.Run())
}

func selfAsSim(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

func TestWorkspaceIsAFreshRepositoryWithTheFixtureAndItsStoreIgnored(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	ctx := context.Background()
	if err := PrepareWorkspace(ctx, dir, map[string]string{".fluzo": Config("http://127.0.0.1:1/v1")}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Cargo.toml", ".fluzo", "Cargo.lock", ".gitignore", "src/lib.rs", "tests/word_count.rs"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	// The private store the agent creates is neither tracked nor untracked.
	if err := os.MkdirAll(filepath.Join(dir, ".fluzodrive"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".fluzodrive", "state.sqlite3"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if status := git(t, dir, "status", "--porcelain", "--untracked-files=all"); status != "" {
		t.Fatalf("demo repository not clean: %q", status)
	}
	if log := git(t, dir, "log", "--oneline"); strings.Count(log, "\n") != 1 || !strings.Contains(log, "fixture") {
		t.Fatalf("want one fixture commit, got %q", log)
	}
	if cfg := git(t, dir, "show", "HEAD:.fluzo"); !strings.Contains(cfg, `base_url = "http://127.0.0.1:1/v1"`) || !strings.Contains(cfg, `verify_command = "cargo test"`) {
		t.Fatalf("the committed .fluzo does not point at the simulator: %s", cfg)
	}
	err := PrepareWorkspace(ctx, dir, nil)
	if err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Fatalf("a non-empty demo directory was reused: %v", err)
	}
}

// The simulator is a real fluzo-sim process: it listens before Start
// returns, and Stop ends it with its verdict (here: the scenario's
// required steps were never requested).
func TestSimulatorIsAChildProcessThatStopsWithItsVerdict(t *testing.T) {
	ctx := context.Background()
	sim, err := StartSimulator(ctx, selfAsSim(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sim.BaseURL, "http://127.0.0.1:") || !strings.HasSuffix(sim.BaseURL, "/v1") {
		t.Fatalf("base URL %q", sim.BaseURL)
	}
	pid := sim.cmd.Process.Pid
	v, err := sim.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if v.OK || v.Requests != 0 || v.Summary() == "" {
		t.Fatalf("an unconsumed scenario passed: %+v", v)
	}
	if again, err := sim.Stop(); err != nil || again.Summary() != v.Summary() {
		t.Fatalf("second Stop: %+v %v", again, err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("the simulator %d still runs after Stop", pid)
	}
}

func TestAScenarioTheSimulatorRejectsIsAnErrorAndLeavesNothingRunning(t *testing.T) {
	_, err := startSimulator(context.Background(), selfAsSim(t), []byte(`{"not": "a scenario"}`))
	// The simulator's own complaint is part of the error.
	if err == nil || !strings.Contains(err.Error(), "did not start listening") || !strings.Contains(err.Error(), "fluzo-sim") {
		t.Fatalf("want a start error, got %v", err)
	}
	_, err = StartSimulator(context.Background(), filepath.Join(t.TempDir(), "no-fluzo-sim"))
	if err == nil || !strings.Contains(err.Error(), "cannot start the simulator") {
		t.Fatalf("want a start error, got %v", err)
	}
}

func TestStartPreparesTheWorkspaceAgainstTheRunningSimulator(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	d, err := Start(context.Background(), Options{Dir: dir, SimPath: selfAsSim(t), AdmitPath: selfAsSim(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Stop()
	cfg, err := os.ReadFile(filepath.Join(dir, ".fluzo"))
	if err != nil || !strings.Contains(string(cfg), d.Sim.BaseURL) {
		t.Fatalf(".fluzo does not name %s: %s %v", d.Sim.BaseURL, cfg, err)
	}
	args := strings.Join(d.RunArgs(true), " ")
	for _, want := range []string{"run --workspace " + dir, "--allow exec:cargo test", "--json", "--task " + Request} {
		if !strings.Contains(args, want) {
			t.Errorf("run args %q lack %q", args, want)
		}
	}
	if serve := strings.Join(d.ServeArgs(), " "); serve != "serve --workspace "+dir {
		t.Errorf("serve args %q", serve)
	}
	if _, err := Start(context.Background(), Options{Dir: dir, SimPath: selfAsSim(t), AdmitPath: selfAsSim(t)}); err == nil {
		t.Fatal("a second demo reused the directory")
	}
}

// The demo's consent is its own: recorded for the demo workspace in a
// private state directory its children get as XDG_STATE_HOME, never in
// the user's consent store, and gone when the demo stops.
func TestDemoConsentIsIsolatedFromTheUsersStore(t *testing.T) {
	user := t.TempDir()
	t.Setenv("XDG_STATE_HOME", user)
	dir := filepath.Join(t.TempDir(), "demo")
	d, err := Start(context.Background(), Options{Dir: dir, SimPath: selfAsSim(t), AdmitPath: selfAsSim(t)})
	if err != nil {
		t.Fatal(err)
	}
	if d.State == "" || strings.HasPrefix(d.State, user) || strings.HasPrefix(d.State, dir) {
		t.Fatalf("demo state %q is not private (user state %s, workspace %s)", d.State, user, dir)
	}
	records, _ := filepath.Glob(filepath.Join(d.State, "fluzo", "consent", "*", "*.json"))
	if len(records) != 1 {
		t.Errorf("demo consent records: %v", records)
	}
	if _, err := os.Stat(filepath.Join(user, "fluzo")); !os.IsNotExist(err) {
		t.Errorf("the demo wrote to the user's state directory: %v", err)
	}
	found := false
	for _, kv := range d.Env() {
		if kv == "XDG_STATE_HOME="+user {
			t.Error("the demo's children would use the user's consent store")
		}
		found = found || kv == "XDG_STATE_HOME="+d.State
	}
	if !found {
		t.Error("Env does not carry the demo's state directory")
	}
	d.Stop()
	if _, err := os.Stat(d.State); !os.IsNotExist(err) {
		t.Errorf("the demo's consent outlived it: %v", err)
	}
}
