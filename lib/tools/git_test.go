package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tools/baseline"
)

// hostileRepo is a repository whose configuration points every helper git
// could run at a script that leaves a sentinel file.
func hostileRepo(t *testing.T) (repo, sentinel string) {
	repo = t.TempDir()
	sentinel = filepath.Join(t.TempDir(), "helper-ran")
	script := filepath.Join(t.TempDir(), "helper.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$0 $*\" >> "+sentinel+"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, repo, map[string]string{"a.txt": "one\n", ".gitattributes": "*.txt diff=conv filter=evil\n"})
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-qm", "init")
	for _, kv := range [][2]string{
		{"core.fsmonitor", script}, {"core.pager", script}, {"diff.external", script},
		{"diff.conv.textconv", script}, {"diff.conv.command", script}, {"filter.evil.clean", script},
		{"filter.evil.smudge", script}, {"filter.evil.required", "true"}, {"core.hooksPath", filepath.Dir(script)},
		{"credential.helper", script}, {"core.editor", script}, {"gpg.program", script}, {"commit.gpgSign", "true"},
		{"log.showSignature", "true"}, {"core.sshCommand", script},
	} {
		git(t, repo, "config", kv[0], kv[1])
	}
	hooks := filepath.Join(repo, ".git", "hooks")
	for _, h := range []string{"pre-commit", "commit-msg", "post-commit", "pre-push", "post-index-change"} {
		os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\necho hook >> "+sentinel+"\n"), 0o755)
		os.WriteFile(filepath.Join(filepath.Dir(script), h), []byte("#!/bin/sh\necho hook >> "+sentinel+"\n"), 0o755)
	}
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\ntwo\n"), 0o644)
	return repo, sentinel
}

func TestGitInspectionRunsNoRepositoryHelper(t *testing.T) {
	repo, sentinel := hostileRepo(t)
	c := newClient(t, repo)
	st := callOK[GitResult](t, c, "git_status", map[string]any{})
	if !strings.Contains(st.Stdout, " M a.txt") {
		t.Fatalf("git_status = %+v", st.Outcome)
	}
	d := callOK[GitResult](t, c, "git_diff", map[string]any{"paths": []string{"a.txt"}})
	if !strings.Contains(d.Stdout, "+two") {
		t.Fatalf("git_diff = %+v", d.Outcome)
	}
	callOK[GitResult](t, c, "git_diff", map[string]any{"staged": true})
	l := callOK[GitResult](t, c, "git_log", map[string]any{"n": 5})
	if !strings.Contains(l.Stdout, "init") {
		t.Fatalf("git_log = %+v", l.Outcome)
	}
	s := callOK[GitResult](t, c, "git_show", map[string]any{"rev": "HEAD"})
	if !strings.Contains(s.Stdout, "+one") {
		t.Fatalf("git_show = %+v", s.Outcome)
	}
	if b, err := os.ReadFile(sentinel); err == nil {
		t.Fatalf("a repository-configured helper ran during inspection:\n%s", b)
	}
	if strings.TrimSpace(git(t, repo, "diff", "--cached", "--name-only")) != "" {
		t.Fatal("inspection staged something")
	}
	callErr(t, c, "git_show", map[string]any{"rev": "--output=/tmp/x"}, "invalid_request")
	callErr(t, c, "git_diff", map[string]any{"paths": []string{"../outside"}}, "outside_root")
}

func TestGitMutationsAreSeparateAndHookless(t *testing.T) {
	repo, sentinel := hostileRepo(t)
	remote := t.TempDir()
	git(t, remote, "init", "-q", "--bare")
	git(t, repo, "remote", "add", "origin", remote)
	// git_commit runs with the tool's minimal environment, so the identity
	// must come from the repository: the test machine may have no global one.
	git(t, repo, "config", "user.name", "Fluzo Test")
	git(t, repo, "config", "user.email", "test@fluzo.invalid")
	c := newClient(t, repo)
	// The repository's filter driver must run to stage correctly: refused.
	callErr(t, c, "git_add", map[string]any{"paths": []string{"a.txt"}}, "helper_required")
	git(t, repo, "config", "--remove-section", "filter.evil")
	add := callOK[GitResult](t, c, "git_add", map[string]any{"paths": []string{"a.txt"}})
	if *add.ExitCode != 0 || !strings.Contains(git(t, repo, "diff", "--cached", "--name-only"), "a.txt") {
		t.Fatalf("git_add = %+v", add.Outcome)
	}
	ci := callOK[GitResult](t, c, "git_commit", map[string]any{"message": "second"})
	if *ci.ExitCode != 0 || !strings.Contains(git(t, repo, "log", "--oneline", "-1"), "second") {
		t.Fatalf("git_commit = %+v", ci.Outcome)
	}
	branch := strings.TrimSpace(git(t, repo, "rev-parse", "--abbrev-ref", "HEAD"))
	push := callOK[GitResult](t, c, "git_push", map[string]any{"remote": "origin", "branch": branch})
	if *push.ExitCode != 0 || !strings.Contains(git(t, remote, "log", "--oneline", "-1", branch), "second") {
		t.Fatalf("git_push = %+v", push.Outcome)
	}
	if b, err := os.ReadFile(sentinel); err == nil {
		t.Fatalf("a hook or helper ran during a mutation:\n%s", b)
	}
}

func TestBaselineSeparatesPreExistingChanges(t *testing.T) {
	repo := t.TempDir()
	writeFiles(t, repo, map[string]string{"keep.txt": "k\n", "staged.txt": "s\n", "edit.txt": "e\n", "revert.txt": "r\n"})
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-qm", "init")
	writeFiles(t, repo, map[string]string{"staged.txt": "s2\n", "edit.txt": "e2\n", "revert.txt": "r2\n", "untracked.txt": "u\n"})
	git(t, repo, "add", "staged.txt")
	c := newClient(t, repo)
	root := newServerRoot(t, repo)
	before, err := baseline.Capture(context.Background(), root, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Entries) != 4 {
		t.Fatalf("baseline entries = %+v", before.Entries)
	}
	// The task edits edit.txt and creates new.txt; something else reverts
	// revert.txt and touches keep.txt.
	v := callOK[ViewResult](t, c, "view", map[string]any{"path": "edit.txt"}).Version
	callOK[WriteResult](t, c, "write", map[string]any{"path": "edit.txt", "content": "e3\n", "expect_version": v})
	callOK[WriteResult](t, c, "write", map[string]any{"path": "new.txt", "content": "n\n", "expect_version": "absent"})
	git(t, repo, "checkout", "--", "revert.txt")
	writeFiles(t, repo, map[string]string{"keep.txt": "changed outside\n"})
	after, err := baseline.Capture(context.Background(), root, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	sum := baseline.Compare(before, after, []string{"edit.txt", "new.txt"})
	if strings.Join(sum.PreExisting, ",") != "staged.txt,untracked.txt" {
		t.Fatalf("pre-existing = %v", sum.PreExisting)
	}
	got := map[string]baseline.Change{}
	for _, ch := range sum.Changed {
		got[ch.Path] = ch
	}
	want := map[string]struct {
		kind     string
		pre, unc bool
	}{"edit.txt": {"modified", true, false}, "new.txt": {"changed", false, false}, "revert.txt": {"reverted", true, true}, "keep.txt": {"changed", false, true}}
	for p, w := range want {
		ch, ok := got[p]
		if !ok || ch.Kind != w.kind || ch.PreExisting != w.pre || ch.Uncertain != w.unc {
			t.Errorf("%s: got %+v, want %+v", p, ch, w)
		}
	}
	if len(sum.Changed) != len(want) || sum.HeadChanged {
		t.Fatalf("summary = %+v", sum)
	}
}

func TestGitInspectionDoesNotEnterHostileSubmodules(t *testing.T) {
	repo, sentinel := hostileRepo(t)
	inner := t.TempDir()
	writeFiles(t, inner, map[string]string{"s.txt": "s\n", ".gitattributes": "*.txt filter=subevil diff=subconv\n"})
	git(t, inner, "init", "-q")
	git(t, inner, "add", ".")
	git(t, inner, "commit", "-qm", "inner")
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "sub")
	script := strings.TrimSpace(git(t, repo, "config", "--file", filepath.Join(repo, ".git", "config"), "core.fsmonitor"))
	subgit := filepath.Join(repo, ".git", "modules", "sub")
	git(t, subgit, "config", "core.fsmonitor", script)
	git(t, subgit, "config", "core.pager", script)
	git(t, subgit, "config", "filter.subevil.clean", script)
	git(t, subgit, "config", "diff.subconv.textconv", script)
	writeFiles(t, repo, map[string]string{"sub/s.txt": "t\n", "sub/new.txt": "n\n"})
	c := newClient(t, repo)
	callOK[GitResult](t, c, "git_status", map[string]any{})
	callOK[GitResult](t, c, "git_diff", map[string]any{})
	if b, err := os.ReadFile(sentinel); err == nil {
		t.Fatalf("a submodule's helper ran during inspection:\n%s", b)
	}
}
