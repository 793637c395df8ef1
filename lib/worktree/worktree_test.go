package worktree

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

var ctx = context.Background()

// repo makes a real repository with files committed and .fluzodrive
// excluded, as a workspace is.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	write(t, dir, files)
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "fixture")
	write(t, dir, map[string]string{".git/info/exclude": "/.fluzodrive/\n"})
	if err := os.Mkdir(filepath.Join(dir, ".fluzodrive"), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// refs is every ref and the commit count: nothing may be committed and
// no branch may move (the task branch aside, which Create adds).
func refs(t *testing.T, dir string) string {
	return run(t, dir, "for-each-ref", "--format=%(refname) %(objectname)") + run(t, dir, "rev-list", "--all", "--count") + run(t, dir, "rev-parse", "HEAD")
}

// snapshot is every file under dir but the data root, byte for byte,
// with its mode: .git included, so an index or ref write shows.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".fluzodrive" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[rel] = info.Mode().String()
			return nil
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = info.Mode().String() + " " + string(body)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed", k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s appeared", k)
		}
	}
}

func newTask() string { return core.NewID(core.KindTask) }

func TestCreateMakesABranchAtHEADAndLeavesTheMainTreeAlone(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n"})
	before := snapshot(t, root)
	head := strings.TrimSpace(run(t, root, "rev-parse", "HEAD"))
	task := newTask()
	b, err := Create(ctx, root, task)
	if err != nil {
		t.Fatal(err)
	}
	if b.Base != head || b.Branch != "fluzo/"+task || b.Rel != filepath.Join(".fluzodrive", "worktrees", task) || b.SourceDirty {
		t.Fatalf("binding %+v", b)
	}
	if got := strings.TrimSpace(run(t, b.Path(root), "rev-parse", "--abbrev-ref", "HEAD")); got != b.Branch {
		t.Fatalf("worktree is on %q", got)
	}
	body, err := os.ReadFile(filepath.Join(b.Path(root), "a.txt"))
	if err != nil || string(body) != "one\n" {
		t.Fatalf("worktree a.txt = %q, %v", body, err)
	}
	// The main tree's files, index and HEAD are as they were; only git's
	// worktree metadata and the new branch ref were added under .git.
	after := snapshot(t, root)
	for k, v := range before {
		if !strings.HasPrefix(k, ".git") && after[k] != v {
			t.Errorf("%s changed", k)
		}
	}
	if after[".git/index"] != before[".git/index"] || after[".git/HEAD"] != before[".git/HEAD"] {
		t.Error("the main tree's index or HEAD changed")
	}
	if run(t, root, "status", "--porcelain") != "" {
		t.Error("the main tree is not clean")
	}
}

func TestCreateRunsNoRepositoryHook(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n"})
	marker := filepath.Join(t.TempDir(), "hook-ran")
	write(t, root, map[string]string{".git/hooks/post-checkout": "#!/bin/sh\ntouch " + marker + "\n"})
	if err := os.Chmod(filepath.Join(root, ".git/hooks/post-checkout"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, root, newTask()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's post-checkout hook ran")
	}
}

func TestCreateNeedsACommit(t *testing.T) {
	root := t.TempDir()
	run(t, root, "init", "-q")
	_, err := Create(ctx, root, newTask())
	if core.CodeOf(err) != core.CodeConfigurationRequired {
		t.Fatalf("err = %v", err)
	}
}

func TestCreateRefusesANonTaskID(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n"})
	if _, err := Create(ctx, root, "../../escape"); core.CodeOf(err) != core.CodeUsage {
		t.Fatalf("err = %v", err)
	}
}

// change edits the worktree: a modification, a deletion, a new text file
// and a new binary file.
func change(t *testing.T, root string, b Binding) {
	t.Helper()
	wt := b.Path(root)
	write(t, wt, map[string]string{"a.txt": "one\ntwo\n", "dir/new.txt": "fresh\n", "blob.bin": "\x00\x01\x02binary\x00"})
	if err := os.Remove(filepath.Join(wt, "gone.txt")); err != nil {
		t.Fatal(err)
	}
}

func TestDiffSummarisesEveryKindOfChangeWithoutCommitting(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n", "gone.txt": "bye\n", "keep.txt": "same\n"})
	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	change(t, root, b)
	before := refs(t, root)
	ch, err := Diff(ctx, root, b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.txt": "modified", "blob.bin": "added", "dir/new.txt": "added", "gone.txt": "deleted"}
	if len(ch.Files) != len(want) {
		t.Fatalf("files %+v", ch.Files)
	}
	for _, f := range ch.Files {
		if want[f.Path] != f.Status {
			t.Errorf("%s: %s, want %s", f.Path, f.Status, want[f.Path])
		}
		if f.Path == "blob.bin" && (!f.Binary || f.Added != nil) {
			t.Errorf("binary file %+v", f)
		}
		if f.Path == "a.txt" && (f.Added == nil || *f.Added != 1 || *f.Deleted != 0) {
			t.Errorf("a.txt counts %+v", f)
		}
	}
	if len(ch.ID) != 64 || !bytes.Contains(ch.Patch, []byte("+two")) {
		t.Fatalf("id %q patch %s", ch.ID, ch.Patch)
	}
	if refs(t, root) != before {
		t.Fatal("diffing moved a ref or made a commit")
	}
	if st := run(t, b.Path(root), "status", "--porcelain"); !strings.Contains(st, "?? blob.bin") {
		t.Fatalf("diffing staged something in the worktree: %q", st)
	}
}

func TestAcceptWritesTheChangeUncommittedAndUnstaged(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n", "gone.txt": "bye\n", "keep.txt": "same\n"})
	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	change(t, root, b)
	before := refs(t, root)
	index, _ := os.ReadFile(filepath.Join(root, ".git", "index"))
	ch, err := Accept(ctx, root, b, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.txt", "dir/new.txt", "blob.bin"} {
		got, _ := os.ReadFile(filepath.Join(root, p))
		want, _ := os.ReadFile(filepath.Join(b.Path(root), p))
		if !bytes.Equal(got, want) {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); !os.IsNotExist(err) {
		t.Error("gone.txt was not deleted")
	}
	if refs(t, root) != before {
		t.Fatal("accept moved a ref or made a commit")
	}
	if after, _ := os.ReadFile(filepath.Join(root, ".git", "index")); !bytes.Equal(index, after) {
		t.Fatal("accept wrote the index (staged something)")
	}
	st := run(t, root, "status", "--porcelain")
	for _, line := range []string{" M a.txt", " D gone.txt", "?? blob.bin", "?? dir/"} {
		if !strings.Contains(st, line) {
			t.Errorf("status lacks %q:\n%s", line, st)
		}
	}
	if len(ch.Files) != 4 {
		t.Fatalf("accepted %+v", ch.Files)
	}
}

func TestAcceptRefusesOverUserChangesAndChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		user       func(t *testing.T, root string)
	}{
		{"unstaged", "a.txt", func(t *testing.T, root string) { write(t, root, map[string]string{"a.txt": "mine\n"}) }},
		{"staged", "a.txt", func(t *testing.T, root string) {
			write(t, root, map[string]string{"a.txt": "mine\n"})
			run(t, root, "add", "a.txt")
		}},
		{"untracked", "dir/new.txt", func(t *testing.T, root string) { write(t, root, map[string]string{"dir/new.txt": "mine\n"}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := repo(t, map[string]string{"a.txt": "one\n", "gone.txt": "bye\n"})
			b, err := Create(ctx, root, newTask())
			if err != nil {
				t.Fatal(err)
			}
			change(t, root, b)
			tc.user(t, root)
			write(t, root, map[string]string{"unrelated.txt": "also mine\n"})
			before := snapshot(t, root)
			_, err = Accept(ctx, root, b, "")
			fe := core.AsError(err)
			if fe == nil || fe.Code != CodeConflict || !strings.Contains(fe.Message, tc.file) || !strings.Contains(fe.Hint, "nothing was changed") {
				t.Fatalf("err = %+v", fe)
			}
			if files, _ := fe.Details["files"].([]string); len(files) != 1 || files[0] != tc.file {
				t.Fatalf("files %v", fe.Details["files"])
			}
			sameSnapshot(t, before, snapshot(t, root))
		})
	}
}

func TestAcceptRefusesWhenTheBranchMovedUnderAChangedFile(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n", "gone.txt": "bye\n"})
	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	change(t, root, b)
	write(t, root, map[string]string{"a.txt": "one\nupstream\n"})
	run(t, root, "commit", "-q", "-am", "user commit")
	before := snapshot(t, root)
	_, err = Accept(ctx, root, b, "")
	if fe := core.AsError(err); fe == nil || fe.Code != CodeConflict || fe.Details["reason"] != "base_moved" {
		t.Fatalf("err = %+v", fe)
	}
	sameSnapshot(t, before, snapshot(t, root))
}

func TestAcceptRefusesAChangeOtherThanTheReviewedOne(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n", "gone.txt": "bye\n"})
	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	change(t, root, b)
	reviewed, err := Diff(ctx, root, b)
	if err != nil {
		t.Fatal(err)
	}
	write(t, b.Path(root), map[string]string{"a.txt": "later\n"})
	before := snapshot(t, root)
	if _, err := Accept(ctx, root, b, reviewed.ID); core.CodeOf(err) != CodeConflict {
		t.Fatalf("err = %v", err)
	}
	sameSnapshot(t, before, snapshot(t, root))
}

func TestRemoveDeletesTheWorktreeAndBranchAndCanRunAgain(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n", "gone.txt": "bye\n"})
	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	change(t, root, b)
	for i := 0; i < 2; i++ {
		if err := Remove(ctx, root, b); err != nil {
			t.Fatal(err)
		}
	}
	if Exists(root, b) {
		t.Fatal("the worktree is still there")
	}
	if out := run(t, root, "branch", "--list", b.Branch); out != "" {
		t.Fatalf("branch left: %q", out)
	}
	if out := run(t, root, "worktree", "list"); strings.Contains(out, b.Task) {
		t.Fatalf("git still lists it: %s", out)
	}
}

func TestRemoveLeavesTheUsersStaleWorktreesAlone(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n"})
	other := filepath.Join(t.TempDir(), "other")
	run(t, root, "worktree", "add", "-q", "--detach", other)
	if err := os.RemoveAll(other); err != nil {
		t.Fatal(err)
	}
	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	if err := Remove(ctx, root, b); err != nil {
		t.Fatal(err)
	}
	if out := run(t, root, "worktree", "list"); !strings.Contains(out, other) || strings.Contains(out, b.Task) {
		t.Fatalf("worktrees after remove:\n%s", out)
	}
}

func TestRemovePrunesAWorktreeDeletedOutsideGit(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n"})
	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(b.Path(root)); err != nil {
		t.Fatal(err)
	}
	if err := Remove(ctx, root, b); err != nil {
		t.Fatal(err)
	}
	if out := run(t, root, "worktree", "list"); strings.Contains(out, b.Task) {
		t.Fatalf("git still lists it:\n%s", out)
	}
	if out := run(t, root, "branch", "--list", b.Branch); out != "" {
		t.Fatalf("branch left: %q", out)
	}
}

func TestCreateRefusesASymlinkedWorktreesDirectory(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "one\n"})
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(root, ".fluzodrive", "worktrees")); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, root, newTask()); core.CodeOf(err) != core.CodeStorageError {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Fatalf("a worktree was made through the link: %v", ents)
	}
}
