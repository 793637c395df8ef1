package demo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestWorkspaceRunsNoConfiguredHelper: the demo's git init, add and
// commit go through the hardened runner, so even a global configuration
// naming a filter for every file, hooks and an fsmonitor runs none of
// them.
func TestWorkspaceRunsNoConfiguredHelper(t *testing.T) {
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
	if err := PrepareWorkspace(context.Background(), filepath.Join(base, "demo"), nil); err != nil {
		t.Fatal(err)
	}
	if ran, _ := os.ReadDir(sentinels); len(ran) > 0 {
		t.Fatalf("preparing the demo ran configured helpers: %v", ran)
	}
}
