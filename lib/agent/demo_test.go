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
