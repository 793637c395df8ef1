package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoWorkspaceIsAFreshRepositoryWithTheFixture(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	ctx := context.Background()
	if err := PrepareDemoWorkspace(ctx, dir, map[string]string{".fluzo": "schema_version = 1\n"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Cargo.toml", ".fluzo", "Cargo.lock", ".gitignore", "src/lib.rs", "tests/word_count.rs"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	status, err := inspectGit(ctx, dir, "status", "--porcelain")
	if err != nil || len(status) != 0 {
		t.Fatalf("demo repository not clean: %q %v", status, err)
	}
	log, _ := inspectGit(ctx, dir, "log", "--oneline")
	if !strings.Contains(string(log), "fixture") {
		t.Fatalf("no fixture commit: %q", log)
	}
	if err := PrepareDemoWorkspace(ctx, dir, map[string]string{".fluzo": "schema_version = 1\n"}); err == nil {
		t.Fatal("a non-empty demo directory was reused")
	}
}

// The scripted edits carry the version of the fixture file they edit; a
// fixture change must come with the scenario change.
func TestBundledScenariosMatchTheirFixtures(t *testing.T) {
	for scenario, file := range map[string]string{
		"../../share/scenarios/demo-rust.json": "../../share/fixtures/rust-wordcount/src/lib.rs",
		"../../share/scenarios/demo-go.json":   "../../share/fixtures/go-wordcount/wordcount.go",
	} {
		sc, err := os.ReadFile(scenario)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(sc), `"expect_version": "`+version(string(src))+`"`) {
			t.Errorf("%s does not carry the version of %s", scenario, file)
		}
	}
}

// TestDemoWorkspaceRunsNoConfiguredHelper: the demo's git init, add and
// commit go through the hardened runner, so even a global configuration
// naming a filter for every file, hooks and an fsmonitor runs none of
// them.
func TestDemoWorkspaceRunsNoConfiguredHelper(t *testing.T) {
	base := t.TempDir()
	sentinels := filepath.Join(base, "sentinels")
	helper := filepath.Join(base, "helper.sh")
	hooks := filepath.Join(base, "hooks")
	for _, d := range []string{sentinels, hooks} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeExec := func(p, body string) {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeExec(helper, "touch \""+sentinels+"/$1\"\nexec cat\n")
	for _, h := range []string{"pre-commit", "post-commit", "post-index-change", "reference-transaction"} {
		writeExec(filepath.Join(hooks, h), "touch \""+sentinels+"/"+h+"\"\n")
	}
	attrs := filepath.Join(base, "attributes")
	home := filepath.Join(base, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	global := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(attrs, []byte("* filter=ev\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "[core]\n\tattributesFile = " + attrs + "\n\tfsmonitor = " + helper + " fsmonitor\n\thooksPath = " + hooks + "\n" +
		"[filter \"ev\"]\n\tclean = " + helper + " clean\n\tprocess = " + helper + " process\n"
	if err := os.WriteFile(global, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	if err := PrepareDemoWorkspace(context.Background(), filepath.Join(base, "demo"), nil); err != nil {
		t.Fatal(err)
	}
	if ran, _ := os.ReadDir(sentinels); len(ran) > 0 {
		t.Fatalf("preparing the demo ran configured helpers: %v", ran)
	}
}
