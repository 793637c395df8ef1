package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCompareProtectedNamesEachKindOfChange(t *testing.T) {
	root := t.TempDir()
	git := filepath.Join(root, ".git")
	os.MkdirAll(filepath.Join(git, "hooks"), 0o755)
	os.MkdirAll(filepath.Join(git, "info"), 0o755)
	os.WriteFile(filepath.Join(git, "config"), []byte("[core]\n"), 0o644)
	os.WriteFile(filepath.Join(git, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(git, "info", "exclude"), []byte(""), 0o644)
	os.WriteFile(filepath.Join(root, ".fluzo"), []byte("schema_version = 1\n"), 0o644)
	os.Mkdir(filepath.Join(root, ".fluzodrive"), 0o700)
	before := CaptureProtected(root)
	if again := CompareProtected(before, CaptureProtected(root)); len(again) != 0 {
		t.Fatalf("nothing changed but %v", again)
	}

	os.WriteFile(filepath.Join(git, "config"), []byte("[core]\n\tfsmonitor = evil\n"), 0o644) // in place
	os.WriteFile(filepath.Join(git, "hooks", "pre-commit"), []byte("#!/bin/sh\n"), 0o755)     // new
	os.Remove(filepath.Join(git, "info", "exclude"))                                          // gone
	os.Remove(filepath.Join(root, ".fluzo"))
	os.Symlink("/etc/passwd", filepath.Join(root, ".fluzo")) // another type
	// The store's own writes beneath .fluzodrive are not protected-path
	// changes: the runtime makes them while commands run.
	os.WriteFile(filepath.Join(root, ".fluzodrive", "state.sqlite3"), []byte("x"), 0o600)

	got := map[string]string{}
	for _, c := range CompareProtected(before, CaptureProtected(root)) {
		got[c.Path] = c.Change
		if c.What == "" {
			t.Errorf("%s has no description", c.Path)
		}
	}
	want := map[string]string{".git/config": "modified", ".git/hooks/pre-commit": "created", ".git/info/exclude": "deleted", ".fluzo": "replaced"}
	for p, c := range want {
		if got[p] != c {
			t.Errorf("%s: got %q, want %q (all: %v)", p, got[p], c, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("unexpected changes: %v", got)
	}
}
