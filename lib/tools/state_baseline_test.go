package tools

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/josecorral/fluzo/lib/tools/baseline"
)

// The git state a baseline carries is the one git_state answers, line
// for line — odd file names (quoted as git quotes them), staged, modified,
// deleted and untracked paths, the branch header with its upstream — so a
// task's context reads the same from either (the owner asks only the
// baseline).
func TestTheBaselineCarriesTheGitStateAsGitStateReadsIt(t *testing.T) {
	upstream := t.TempDir()
	git(t, upstream, "init", "-q", "-b", "main")
	writeFiles(t, upstream, map[string]string{"kept.txt": "k\n", "edited.txt": "e\n", "removed.txt": "r\n", "staged-rm.txt": "s\n"})
	git(t, upstream, "add", "-A")
	git(t, upstream, "commit", "-q", "-m", "base")
	dir := filepath.Join(t.TempDir(), "clone")
	git(t, upstream, "clone", "-q", upstream, dir)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "ahead by one")
	writeFiles(t, dir, map[string]string{
		"edited.txt": "changed\n", "new-staged.txt": "n\n", "untracked.txt": "u\n",
		"tab\there.txt": "t\n", "café.txt": "c\n", `quote"back\slash.txt`: "q\n", "line\nbreak.txt": "l\n",
		"sub/deep.txt": "d\n",
	})
	if err := os.Remove(filepath.Join(dir, "removed.txt")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "new-staged.txt")
	git(t, dir, "rm", "-q", "staged-rm.txt")
	c := newClient(t, dir)
	ctx := context.Background()
	var want GitState
	if err := c.Query(ctx, QueryGitState, nil, &want); err != nil {
		t.Fatal(err)
	}
	var snap baseline.Snapshot
	if err := c.Query(ctx, QueryBaseline, nil, &snap); err != nil {
		t.Fatal(err)
	}
	got, ok := GitStateOf(&snap)
	if !ok {
		t.Fatal("the baseline carries no git state")
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the baseline's git state differs from git_state's:\nbaseline:  %#v\ngit_state: %#v", got, want)
	}
	if want.Total < 9 || want.Status[0] != "## main...origin/main [ahead 1]" {
		t.Fatalf("the fixture did not produce the states it is meant to cover: %#v", want)
	}
}

func TestAPathIsQuotedAsGitQuotesIt(t *testing.T) {
	for in, want := range map[string]string{
		"plain/name.txt": "plain/name.txt",
		"with space.txt": "with space.txt",
		"tab\there":      `"tab\there"`,
		"nl\nx":          `"nl\nx"`,
		`q"b\s`:          `"q\"b\\s"`,
		"café":           `"caf\303\251"`,
		"esc\x1b[31mred": `"esc\033[31mred"`,
		"del\x7f":        `"del\177"`,
		"bell\a\b\v\f\r": `"bell\a\b\v\f\r"`,
	} {
		if got := baseline.QuotePath(in); got != want {
			t.Errorf("QuotePath(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestABaselineWithoutTheGitStateSaysSo(t *testing.T) {
	if _, ok := GitStateOf(&baseline.Snapshot{Head: "abc"}); ok {
		t.Fatal("a baseline from a backend that sends no git state was taken for one with an empty state")
	}
}
