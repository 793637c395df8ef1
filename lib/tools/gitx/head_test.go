package gitx

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func plain(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x.invalid")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Head reads the top level, HEAD and branch in one git process where it
// can; every state of HEAD must come out as the separate commands say.
func TestHeadInEveryStateOfHead(t *testing.T) {
	dir := t.TempDir()
	plain(t, dir, "init", "-q", "-b", "trunk")
	check := func(state, wantHead, wantBranch string) {
		t.Helper()
		top, head, branch := Head(t.Context(), dir, os.Environ(), true)
		if top != dir || head != wantHead || branch != wantBranch {
			t.Errorf("%s: top %q head %q branch %q; want %q %q %q", state, top, head, branch, dir, wantHead, wantBranch)
		}
		if _, head2, branch2 := Head(t.Context(), dir, os.Environ(), false); head2 != head || branch2 != branch {
			t.Errorf("%s without the top level: head %q branch %q", state, head2, branch2)
		}
	}
	check("unborn", "", "trunk")
	plain(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
	commit := strings.TrimSpace(plain(t, dir, "rev-parse", "HEAD"))
	check("on a branch", commit, "trunk")
	// A file named HEAD must not make the name ambiguous.
	if err := os.WriteFile(filepath.Join(dir, "HEAD"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("with a file named HEAD", commit, "trunk")
	plain(t, dir, "checkout", "-q", "--detach")
	check("detached", commit, "")
}
