package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// TestExclusionIgnoresInheritedGitVariables: a GIT_DIR (or GIT_WORK_TREE,
// GIT_INDEX_FILE) inherited from a hook or a wrapper script would make git
// answer about another repository. Here that other repository excludes
// .fluzodrive and the workspace does not: the store must still refuse.
func TestExclusionIgnoresInheritedGitVariables(t *testing.T) {
	ctx := context.Background()
	other := gitRepo(t)
	if err := os.WriteFile(filepath.Join(other, ".git", "info", "exclude"), []byte("/.fluzodrive/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := ResolveWorkspace(ctx, gitRepo(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	_, err = Open(ctx, ws)
	wantCode(t, err, core.CodeConfigurationRequired)
	if exists(ws.Drive()) {
		t.Fatal(".fluzodrive was created in a repository that does not exclude it")
	}
	if ex, _ := CheckExclusion(ctx, ws); ex.OK() {
		t.Fatalf("exclusion answered for the inherited GIT_DIR: %+v", ex)
	}
}

// TestExclusionCheckRunsNoRepositoryHelper: the repository's fsmonitor
// hook, pager and external diff point at a script that leaves a sentinel;
// creating and checking the store must never run it.
func TestExclusionCheckRunsNoRepositoryHelper(t *testing.T) {
	ctx := context.Background()
	dir := gitRepo(t)
	sentinel := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho \"$0 $*\" >> "+sentinel+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"core.fsmonitor", "core.pager", "diff.external", "core.hooksPath"} {
		git(t, dir, "config", key, hook)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "-c", "core.fsmonitor=false", "add", "a.txt")
	ws, err := ResolveWorkspace(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddGitExclude(ctx, ws); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := CheckExclusion(ctx, ws); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(sentinel); err == nil {
		t.Fatalf("a repository-configured helper ran:\n%s", b)
	}
}

// TestExclusionHonoursTheUsersGlobalConfig: GIT_CONFIG_GLOBAL selects the
// user's git configuration, whose core.excludesFile is part of what
// "ignored" means to their git; it is kept when GIT_DIR and friends go.
func TestExclusionHonoursTheUsersGlobalConfig(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ignore := filepath.Join(dir, "ignore")
	global := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(ignore, []byte(".fluzodrive/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(global, []byte("[core]\n\texcludesFile = "+ignore+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := ResolveWorkspace(ctx, gitRepo(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	s, err := Open(ctx, ws)
	if err != nil {
		t.Fatalf("a store excluded by the user's global ignore file was refused: %v", err)
	}
	s.Close()
}
