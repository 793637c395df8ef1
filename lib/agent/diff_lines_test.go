package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The diff summary counts each changed path's lines against what it held
// when the task began, and says unknown (no count) where that content is
// not known: a path already changed at baseline, a binary file.
func TestDiffSummaryCountsLinesAgainstTheBaseline(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"edit.txt":   "one\ntwo\nthree\n",
		"gone.txt":   "a\nb\nc\nd\n",
		"user.txt":   "mine\n",
		"bin.dat":    "x\x00y\n",
		"same.txt":   "kept\n",
		"commit.txt": "c1\n",
	})
	writeFiles(t, dir, map[string]string{"user.txt": "mine\nchanged by the user\n"}) // pre-existing change
	ctx := context.Background()
	b, err := captureBaseline(ctx, localReads(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// What the task does after the baseline: the HEAD moves too, so the
	// counts must be against the baseline's HEAD, not the current one.
	writeFiles(t, dir, map[string]string{
		"edit.txt":   "one\n2\nthree\nfour\nfive\n", // +3 -1
		"new.txt":    "x\ny\nno newline at end",     // 3 lines, untracked
		"user.txt":   "mine\nchanged again\n",       // pre-existing: unknown
		"bin.dat":    "x\x00z\n",                    // binary: unknown
		"commit.txt": "c1\nc2\n",                    // committed below
	})
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil { // -4
		t.Fatal(err)
	}
	git(t, dir, "add", "commit.txt")
	git(t, dir, "commit", "-q", "-m", "task commit")
	writeFiles(t, dir, map[string]string{"commit.txt": "c1\nc2\nc3\n"}) // +2 since the baseline, +1 since HEAD
	raw, err := b.Diff(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Changed []struct {
			Path           string
			Kind           string
			Added, Removed *int
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"edit.txt": "modified +3 -1", "new.txt": "added +3 -0", "gone.txt": "deleted +0 -4",
		"commit.txt": "modified +2 -0", "user.txt": "modified unknown", "bin.dat": "modified unknown",
	}
	seen := map[string]string{}
	for _, c := range got.Changed {
		s := c.Kind + " unknown"
		if (c.Added == nil) != (c.Removed == nil) {
			t.Errorf("%s: one count known, the other not: %s", c.Path, raw)
		}
		if c.Added != nil && c.Removed != nil {
			s = c.Kind + " +" + itoa(*c.Added) + " -" + itoa(*c.Removed)
		}
		seen[c.Path] = s
	}
	for p, w := range want {
		if seen[p] != w {
			t.Errorf("%s: got %q, want %q (summary %s)", p, seen[p], w, raw)
		}
	}
	if _, ok := seen["same.txt"]; ok {
		t.Errorf("an untouched path is listed: %s", raw)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
