package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scripts/release makes a directory that scripts/release --check accepts,
// and the check refuses each way a release can go wrong after the fact.
func TestReleaseCheckVerifiesAndCatchesTampering(t *testing.T) {
	src := cloneHEAD(t)
	dist := filepath.Join(t.TempDir(), "dist")
	run(t, src, "./scripts/release", "--out", dist, "0.0.1")
	commit := revParse(t, src)[:12]
	out := run(t, src, "./scripts/release", "--check", dist)
	if want := "OK (0.0.1, " + commit + " " + commitDate(t, src) + "; 8 binaries"; !strings.Contains(out, want) {
		t.Fatalf("check output %q lacks %q", out, want)
	}
	archive := "fluzo-0.0.1-linux-x86_64.tar.gz"

	cases := []struct {
		name, want string
		tamper     func(t *testing.T, dir string)
	}{
		{"a flipped byte", archive + ": FAILED", func(t *testing.T, dir string) {
			p := filepath.Join(dir, archive)
			b, _ := os.ReadFile(p)
			b[len(b)/2] ^= 1
			os.WriteFile(p, b, 0o644)
		}},
		{"an unlisted file", "extra.txt is not listed in SHA256SUMS", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "extra.txt"), []byte("x"), 0o644)
		}},
		{"a missing man page and a writable binary, re-summed", "-644 share/man/man1/fluzo-sim.1", func(t *testing.T, dir string) {
			top := strings.TrimSuffix(archive, ".tar.gz")
			run(t, dir, "tar", "-xzf", archive)
			os.Remove(filepath.Join(dir, top, "share/man/man1/fluzo-sim.1"))
			os.Chmod(filepath.Join(dir, top, "bin/fluzo"), 0o777)
			run(t, dir, "tar", "-czf", archive, top)
			os.RemoveAll(filepath.Join(dir, top))
			resum(t, dir)
		}},
		{"a man page that names the development version, re-summed", "share/man/man1/fluzo.1 does not name version 0.0.1", func(t *testing.T, dir string) {
			top := strings.TrimSuffix(archive, ".tar.gz")
			run(t, dir, "tar", "-xzf", archive)
			page := filepath.Join(dir, top, "share/man/man1/fluzo.1")
			b, _ := os.ReadFile(page)
			os.WriteFile(page, []byte(strings.Replace(string(b), `"Fluzo 0.0.1"`, `"Fluzo 0.1.0-dev"`, 1)), 0o644)
			run(t, dir, "tar", "-czf", archive, top)
			os.RemoveAll(filepath.Join(dir, top))
			resum(t, dir)
		}},
		{"a binary that reports another version, re-summed", "bin/fluzo-sim --version says 'fluzo-sim 9.9.9", func(t *testing.T, dir string) {
			top := strings.TrimSuffix(archive, ".tar.gz")
			run(t, dir, "tar", "-xzf", archive)
			run(t, src, "./scripts/build", "--out", filepath.Join(dir, top, "bin"), "--version", "9.9.9", "fluzo-sim")
			run(t, dir, "tar", "-czf", archive, top)
			os.RemoveAll(filepath.Join(dir, top))
			resum(t, dir)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dist")
			run(t, "", "cp", "-r", dist, dir)
			tc.tamper(t, dir)
			cmd := exec.Command("./scripts/release", "--check", dir)
			cmd.Dir = src
			b, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the check passed a release with %s:\n%s", tc.name, b)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("the check's output lacks %q:\n%s", tc.want, b)
			}
		})
	}
}

// resum rewrites SHA256SUMS, as a careless re-packer would, so that the
// content checks rather than the checksums must catch the change.
func resum(t *testing.T, dir string) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	var list []string
	for _, n := range names {
		if b := filepath.Base(n); b != "SHA256SUMS" {
			list = append(list, b)
		}
	}
	sums := run(t, dir, "sha256sum", list...)
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
}
