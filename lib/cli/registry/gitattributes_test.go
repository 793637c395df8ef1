package registry

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// A union merge keeps both sides of a conflicting hunk. On Go source that
// silently duplicates lines (two registry entries for one command, a second
// copy of a changed flag) instead of stopping the merge, so no Go file may
// carry merge=union.
func TestNoGoFileIsUnionMerged(t *testing.T) {
	files, err := exec.Command("git", "-C", repoRoot, "ls-files", "*.go").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	check := exec.Command("git", "-C", repoRoot, "check-attr", "--stdin", "merge")
	check.Stdin = bytes.NewReader(files)
	out, err := check.Output()
	if err != nil {
		t.Fatalf("git check-attr: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasSuffix(line, ": merge: union") {
			t.Errorf(".gitattributes sets merge=union on Go source: %s", line)
		}
	}
}
