package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// gitRepo creates a real git repository in a temp dir.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x.invalid")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// excludedRepo is a fresh repository whose .fluzodrive is excluded.
func excludedRepo(t *testing.T) Workspace {
	t.Helper()
	ws, err := ResolveWorkspace(context.Background(), gitRepo(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddGitExclude(context.Background(), ws); err != nil {
		t.Fatal(err)
	}
	return ws
}

// openTemp returns a writer store in a fresh, excluded repository.
func openTemp(t *testing.T) (*Store, Workspace) {
	t.Helper()
	ctx := context.Background()
	ws := excludedRepo(t)
	s, err := Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ws
}

func wantCode(t *testing.T, err error, code core.Code) {
	t.Helper()
	if got := core.CodeOf(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}

// seedTask creates a session and a task and returns their IDs.
func seedTask(t *testing.T, s *Store) (string, string) {
	t.Helper()
	var ses core.Session
	task := core.Task{Request: "fix the bug"}
	err := s.Write(context.Background(), func(tx *Tx) error {
		if _, err := tx.CreateSession(&ses); err != nil {
			return err
		}
		task.SessionID = ses.ID
		_, err := tx.CreateTask(&task)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ses.ID, task.ID
}

func fileMode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

var _ = filepath.Join

// gitInit runs git init for benchmarks and tests alike.
func gitInit(tb testing.TB, dir string) {
	tb.Helper()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		tb.Fatalf("git init: %v\n%s", err, out)
	}
}
