package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// countGit puts a git on PATH that logs each invocation's subcommand to a
// file and runs the real git; it returns the log's path.
func countGit(t *testing.T) string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	script := "#!/bin/sh\necho \"$*\" >>" + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

func gitCalls(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	for i, c := range calls {
		// The hardening options are the same on every run; the tail names
		// the subcommand.
		if len(c) > 80 {
			calls[i] = "…" + c[len(c)-80:]
		}
	}
	return calls
}

// The exclusion check is on every owner's start: one ls-files and one
// check-ignore for both the data root and the database (each git run also
// lists the configuration first), never one check-ignore per path.
func TestCheckExclusionRunsOneCheckIgnore(t *testing.T) {
	ctx := context.Background()
	ws := excludedRepo(t)
	log := countGit(t)
	ex, err := CheckExclusion(ctx, ws)
	if err != nil || !ex.OK() {
		t.Fatalf("exclusion %+v, %v; want excluded", ex, err)
	}
	calls := gitCalls(t, log)
	checks := 0
	for _, c := range calls {
		if strings.Contains(c, " check-ignore ") {
			checks++
		}
	}
	if checks != 1 || len(calls) > 4 {
		t.Fatalf("%d check-ignore runs, %d git runs in all, want 1 and at most 4:\n%s", checks, len(calls), strings.Join(calls, "\n"))
	}
}

// Each path is judged on its own: a rule ignoring the directory's entries
// but un-ignoring the database leaves the database visible to git, so the
// data root is not excluded; no rule at all, likewise.
func TestCheckExclusionNeedsBothPathsIgnored(t *testing.T) {
	ctx := context.Background()
	for name, rules := range map[string]string{
		"negated database": "/.fluzodrive/*\n!/.fluzodrive/state.sqlite3\n",
		"no rule":          "",
		"whole directory":  "/.fluzodrive/\n",
	} {
		t.Run(name, func(t *testing.T) {
			ws, err := ResolveWorkspace(ctx, gitRepo(t))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws.Root, ".git", "info", "exclude"), []byte(rules), 0o644); err != nil {
				t.Fatal(err)
			}
			ex, err := CheckExclusion(ctx, ws)
			if err != nil {
				t.Fatal(err)
			}
			if want := name == "whole directory"; ex.Excluded != want {
				t.Fatalf("rules %q: excluded %v, want %v", rules, ex.Excluded, want)
			}
		})
	}
}

// The exclusion check's two git questions are asked at once: a git on
// PATH that holds each of them until the other has started records
// whether either ran alone (after a guard, a deadlock guard rather than a
// timing check).
func TestCheckExclusionAsksBothAtOnce(t *testing.T) {
	ctx := context.Background()
	ws := excludedRepo(t)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin, dir := t.TempDir(), t.TempDir()
	script := `#!/bin/sh
sub=
for a; do case $a in ls-files|check-ignore) sub=$a;; esac; done
if [ -n "$sub" ]; then
  : >` + dir + `/$sub
  other=ls-files; [ $sub = ls-files ] && other=check-ignore
  i=0
  while [ ! -e ` + dir + `/$other ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
  [ -e ` + dir + `/$other ] || echo $sub >>` + dir + `/alone
fi
exec ` + real + ` "$@"
`
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ex, err := CheckExclusion(ctx, ws)
	if err != nil || !ex.OK() {
		t.Fatalf("exclusion %+v, %v", ex, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "alone")); err == nil {
		t.Fatalf("ran alone: %s; want ls-files and check-ignore in flight together", b)
	}
}
