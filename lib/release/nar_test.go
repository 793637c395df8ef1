package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// narFixture builds a tree with every node kind a NAR records: regular and
// executable files (one empty, lengths that need and do not need padding),
// a symlink, nested and empty directories, names that sort differently by
// bytes than by case-folding.
func narFixture(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "tree")
	files := map[string]string{
		"a.txt":            "hello\n",
		"B.txt":            "",
		"eight888":         "12345678",
		"sub/deeper/x.go":  "package x\n",
		"sub/run.sh":       "#!/bin/sh\necho hi\n",
		"sub/Zeta":         "z",
		"empty/.keep-none": "k",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(root, "sub/run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "void"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../a.txt", filepath.Join(root, "sub/link")); err != nil {
		t.Fatal(err)
	}
	return root
}

// narFixtureHash is what `nix hash path` (nix 2.8) printed for narFixture;
// the test below re-asks nix whenever it is installed.
const narFixtureHash = "sha256-aH2L8Kw+QvqNFN7BBkX95D5NYO6PA85ov/ITplmMtw8="

func TestNARHashMatchesNix(t *testing.T) {
	root := narFixture(t)
	got, err := NARHash(root)
	if err != nil {
		t.Fatal(err)
	}
	if got != narFixtureHash {
		t.Errorf("NARHash = %s, want %s (recorded from nix hash path)", got, narFixtureHash)
	}
	if nix, err := exec.LookPath("nix"); err == nil {
		out, err := exec.Command(nix, "--extra-experimental-features", "nix-command", "hash", "path", root).CombinedOutput()
		if err != nil {
			t.Fatalf("nix hash path: %v\n%s", err, out)
		}
		if want := strings.TrimSpace(string(out)); got != want {
			t.Errorf("NARHash = %s, nix hash path = %s", got, want)
		}
	}
}

func TestNARRefusesSpecialFiles(t *testing.T) {
	_, err := NARHash("/dev/null")
	if err == nil || !strings.Contains(err.Error(), "only files, directories and symlinks") {
		t.Fatalf("err = %v", err)
	}
}
