package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// headOf reads the top level, HEAD and branch in one git process where it
// can; every state of HEAD must come out as the separate commands say.
func TestHeadOfInEveryStateOfHead(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "trunk")
	check := func(state, wantHead, wantBranch string) {
		t.Helper()
		top, head, branch := headOf(t.Context(), dir, os.Environ(), true)
		if top != dir || head != wantHead || branch != wantBranch {
			t.Errorf("%s: top %q head %q branch %q; want %q %q %q", state, top, head, branch, dir, wantHead, wantBranch)
		}
		if _, head2, branch2 := headOf(t.Context(), dir, os.Environ(), false); head2 != head || branch2 != branch {
			t.Errorf("%s without the top level: head %q branch %q", state, head2, branch2)
		}
	}
	check("unborn", "", "trunk")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
	commit := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	check("on a branch", commit, "trunk")
	// A file named HEAD must not make the name ambiguous.
	if err := os.WriteFile(filepath.Join(dir, "HEAD"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("with a file named HEAD", commit, "trunk")
	git(t, dir, "checkout", "-q", "--detach")
	check("detached", commit, "")
}
