package worktree

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNoRepositoryHelperRuns: a repository whose configuration names a
// program for every git helper a worktree's life could reach — clean,
// smudge and process filters (required), textconv, diff drivers and
// diff.external, fsmonitor, the pager, hooks in .git/hooks and under
// core.hooksPath (post-checkout, reference-transaction …) — has none of
// them run by create, diff, accept or remove (DESIGN §7 invariant 6).
func TestNoRepositoryHelperRuns(t *testing.T) {
	sentinels := t.TempDir()
	helper := filepath.Join(t.TempDir(), "helper.sh")
	write(t, filepath.Dir(helper), map[string]string{"helper.sh": "#!/bin/sh\ntouch \"" + sentinels + "/$1\"\nexec cat\n"})
	if err := os.Chmod(helper, 0o755); err != nil {
		t.Fatal(err)
	}
	root := repo(t, map[string]string{"a.txt": "one\n", "b.md": "# b\n", ".gitattributes": "*.txt filter=evil diff=evil\n*.md filter=proc\n"})
	hooks := t.TempDir()
	for _, hook := range []string{"post-checkout", "reference-transaction", "post-index-change", "pre-commit", "post-commit"} {
		body := "#!/bin/sh\ntouch \"" + sentinels + "/hook-" + hook + "\"\n"
		write(t, root, map[string]string{".git/hooks/" + hook: body})
		write(t, hooks, map[string]string{hook: body})
		os.Chmod(filepath.Join(root, ".git/hooks", hook), 0o755)
		os.Chmod(filepath.Join(hooks, hook), 0o755)
	}
	config, err := os.OpenFile(filepath.Join(root, ".git/config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := helper
	config.WriteString("[filter \"evil\"]\n\tclean = " + h + " clean\n\tsmudge = " + h + " smudge\n\trequired = true\n" +
		"[filter \"proc\"]\n\tprocess = " + h + " process\n" +
		"[diff \"evil\"]\n\ttextconv = " + h + " textconv\n\tcommand = " + h + " diff-command\n" +
		"[diff]\n\texternal = " + h + " diff-external\n" +
		"[core]\n\tfsmonitor = " + h + " fsmonitor\n\tpager = " + h + " pager\n\thooksPath = " + hooks + "\n" +
		"[apply]\n\twhitespace = fix\n")
	config.Close()

	b, err := Create(ctx, root, newTask())
	if err != nil {
		t.Fatal(err)
	}
	write(t, b.Path(root), map[string]string{"a.txt": "one\ntwo  \n", "b.md": "# b\nmore\n", "new.txt": "new\n"})
	ch, err := Diff(ctx, root, b)
	if err != nil || len(ch.Files) != 3 {
		t.Fatalf("diff: %+v %v", ch.Files, err)
	}
	if _, err := Accept(ctx, root, b, ch.ID); err != nil {
		t.Fatal(err)
	}
	// apply.whitespace=fix would have stripped the trailing blanks.
	if got, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(got) != "one\ntwo  \n" {
		t.Fatalf("a.txt = %q: the change was not applied exactly", got)
	}
	if err := Remove(ctx, root, b); err != nil {
		t.Fatal(err)
	}
	ran, _ := os.ReadDir(sentinels)
	for _, e := range ran {
		t.Errorf("the repository's %s ran", e.Name())
	}
}
