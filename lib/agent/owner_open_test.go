package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Opening the owner confirms the drive's git exclusion once: the check
// is two git commands (four processes with their configuration
// listings) on the way to a run's first request, and the owner ran it
// for its lock just before opening the store.
func TestOpenOwnerChecksTheDriveExclusionOnce(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := newRepo(t, map[string]string{"README": "x\n", ".gitignore": ".fluzodrive/\n"})
	writeFiles(t, dir, map[string]string{".fluzo": "schema_version = 1\n\n[models.coder]\nbase_url = \"http://127.0.0.1:1\"\nmodel = \"sim\"\n"})
	// A git on PATH that logs each subcommand, then runs the real one.
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "git.log")
	wrapper := "#!/bin/sh\nfor a; do case $a in check-ignore|ls-files) echo $a >>" + log + ";; esac; done\nexec " + realGit + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	owner, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Consent: true})
	if err != nil {
		t.Fatal(err)
	}
	owner.Close()
	b, _ := os.ReadFile(log)
	got := strings.Fields(string(b))
	// One exclusion check: ls-files for tracked files, one check-ignore
	// for both the drive and the database.
	checks := map[string]int{}
	for _, sub := range got {
		checks[sub]++
	}
	if checks["ls-files"] != 1 || checks["check-ignore"] != 1 {
		t.Errorf("git ran %v while opening the owner, want one exclusion check (ls-files once, check-ignore once)", checks)
	}
}
