package registry

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeInstallLines returns the README Install block's lines that
// install completion scripts (every line mentioning completion).
func readmeInstallLines(t *testing.T) []string {
	raw, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Install\n")
	if !ok {
		t.Fatal("README.md has no Install section")
	}
	_, block, _ := strings.Cut(section, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if strings.Contains(l, "completion") {
			out = append(out, l)
		}
	}
	return out
}

// TestReadmeInstallsEveryCompletion runs the README's completion install
// lines as written, in a scratch HOME, and checks that every binary's
// bash, zsh and fish completion landed where each shell loads it.
func TestReadmeInstallsEveryCompletion(t *testing.T) {
	lines := readmeInstallLines(t)
	if len(lines) == 0 {
		t.Fatal("the README Install section installs no completion")
	}
	home := t.TempDir()
	cmd := exec.Command("sh", "-e", "-c", strings.Join(lines, "\n"))
	cmd.Dir, cmd.Env = repoRoot, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README completion lines failed: %v\n%s", err, out)
	}
	for _, n := range Names() {
		for _, want := range []string{
			".local/share/bash-completion/completions/" + n,
			".zfunc/_" + n,
			".config/fish/completions/" + n + ".fish",
		} {
			if _, err := os.Stat(filepath.Join(home, want)); err != nil {
				t.Errorf("the README does not install %s's completion: no ~/%s", n, want)
			}
		}
	}
}
