package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tools/discover"
)

var discoveryFixture = map[string]string{
	".gitignore":            "*.log\nbuild/\n/root-only.txt\n!keep.log\ndocs/**/*.tmp\n",
	"main.go":               "package main // TODO one\n",
	"keep.log":              "kept\n",
	"debug.log":             "ignored\n",
	"root-only.txt":         "ignored at the root\n",
	"sub/root-only.txt":     "not ignored below\n",
	"build/out.bin":         "ignored dir\n",
	"docs/a/b/x.tmp":        "ignored deep\n",
	"docs/a/readme.md":      "TODO two\n",
	"sub/.gitignore":        "local.txt\n",
	"sub/local.txt":         "ignored by nested\n",
	"sub/code.go":           "package sub // TODO three\n",
	".env":                  "API_KEY=secret\n",
	".env.production":       "API_KEY=secret\n",
	".env.example":          "API_KEY=\n",
	"certs/server.pem":      "-----BEGIN-----\n",
	"keys/id_ed25519":       "private\n",
	"keys/id_ed25519.pub":   "public\n",
	"deep/nested/file.txt":  "TODO four\n",
	"deep/nested/other.txt": "nothing\n",
}

// gitVisible is the reference: what git lists, minus secret files.
func gitVisible(t *testing.T, dir string) []string {
	out := strings.Split(strings.TrimSpace(git(t, dir, "ls-files", "-co", "--exclude-standard")), "\n")
	var keep []string
	for _, f := range out {
		if f != "" && !discover.Secret(f) {
			keep = append(keep, f)
		}
	}
	sort.Strings(keep)
	return keep
}

func TestDiscoveryMatchesGitLsFiles(t *testing.T) {
	repo := t.TempDir()
	writeFiles(t, repo, discoveryFixture)
	git(t, repo, "init", "-q")
	git(t, repo, "add", "main.go", ".gitignore")
	git(t, repo, "add", "-f", "debug.log") // tracked although ignored: git lists it
	git(t, repo, "commit", "-qm", "init")
	want := gitVisible(t, repo)
	if !contains(want, "debug.log") || contains(want, "build/out.bin") || contains(want, ".env") {
		t.Fatalf("unexpected reference list %v", want)
	}
	got := callOK[ListResult](t, newClient(t, repo), "glob", map[string]any{"pattern": "**"})
	if strings.Join(got.Entries, "\n") != strings.Join(want, "\n") {
		t.Fatalf("glob ** =\n%v\nwant (git ls-files -co --exclude-standard)\n%v", got.Entries, want)
	}
}

func TestDiscoveryOutsideARepositoryHonoursGitignore(t *testing.T) {
	plain, ref := t.TempDir(), t.TempDir()
	writeFiles(t, plain, discoveryFixture)
	writeFiles(t, ref, discoveryFixture)
	git(t, ref, "init", "-q")
	want := gitVisible(t, ref)
	got := callOK[ListResult](t, newClient(t, plain), "glob", map[string]any{"pattern": "**"})
	if strings.Join(got.Entries, "\n") != strings.Join(want, "\n") {
		t.Fatalf("walk =\n%v\nwant\n%v", got.Entries, want)
	}
}

func TestSecretFilesStayOutOfDiscovery(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, discoveryFixture)
	c := newClient(t, root)
	ls := callOK[ListResult](t, c, "ls", map[string]any{"depth": 5})
	grep := callOK[GrepResult](t, c, "grep", map[string]any{"pattern": "secret|private|BEGIN", "literal": false})
	all := strings.Join(ls.Entries, " ")
	for _, m := range grep.Matches {
		all += " " + m.Path
	}
	for _, secret := range []string{".env ", ".env.production", "server.pem", "id_ed25519 "} {
		if strings.Contains(all+" ", secret) {
			t.Errorf("%q discovered in %s", secret, all)
		}
	}
	if !contains(ls.Entries, ".env.example") || !contains(ls.Entries, "keys/id_ed25519.pub") {
		t.Errorf("non-secret files missing from %v", ls.Entries)
	}
}

func TestLsGlobGrep(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, discoveryFixture)
	c := newClient(t, root)
	ls := callOK[ListResult](t, c, "ls", map[string]any{"path": "deep", "depth": 1})
	if strings.Join(ls.Entries, ",") != "nested/" || ls.Path != "deep" {
		t.Fatalf("ls deep = %+v", ls)
	}
	g := callOK[ListResult](t, c, "glob", map[string]any{"pattern": "*.go"})
	if strings.Join(g.Entries, ",") != "main.go,sub/code.go" {
		t.Fatalf("glob *.go = %v", g.Entries)
	}
	grep := callOK[GrepResult](t, c, "grep", map[string]any{"pattern": "TODO", "include": "*.go"})
	if len(grep.Matches) != 2 || grep.Matches[0] != (Match{Path: "main.go", Line: 1, Text: "package main // TODO one"}) {
		t.Fatalf("grep = %+v", grep)
	}
	lit := callOK[GrepResult](t, c, "grep", map[string]any{"pattern": "TODO (", "literal": true})
	if len(lit.Matches) != 0 {
		t.Fatalf("literal grep = %+v", lit)
	}
	sub := callOK[GrepResult](t, c, "grep", map[string]any{"pattern": "TODO", "path": "deep"})
	if len(sub.Matches) != 1 || sub.Matches[0].Path != "deep/nested/file.txt" {
		t.Fatalf("grep in deep = %+v", sub)
	}
	callErr(t, c, "grep", map[string]any{"pattern": "("}, "invalid_request")
}

func TestDiscoveryIsBounded(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < MaxEntries+10; i++ {
		p := filepath.Join(root, "many", fmt.Sprintf("f%04d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("match\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, root)
	g := callOK[ListResult](t, c, "glob", map[string]any{"pattern": "*.txt"})
	if !g.Truncated || len(g.Entries) != MaxEntries+1 || !strings.Contains(g.Entries[MaxEntries], "omitted") {
		t.Fatalf("glob not bounded: %d entries, truncated=%v", len(g.Entries), g.Truncated)
	}
	grep := callOK[GrepResult](t, c, "grep", map[string]any{"pattern": "match"})
	if !grep.Truncated || len(grep.Matches) != MaxMatches {
		t.Fatalf("grep not bounded: %d matches", len(grep.Matches))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
