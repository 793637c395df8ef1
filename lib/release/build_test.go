package release

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cloneHEAD makes a fresh clone of the repository's committed HEAD in a
// directory of its own: a build there sees only committed files, and its
// path differs from every other clone's.
func cloneHEAD(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "src")
	run(t, repoRoot, "git", "clone", "-q", "--shared", "--no-checkout", ".", dir)
	run(t, dir, "git", "checkout", "-q", "--detach", revParse(t, repoRoot))
	return dir
}

func revParse(t *testing.T, dir string) string {
	t.Helper()
	return strings.TrimSpace(run(t, dir, "git", "rev-parse", "HEAD"))
}

// commitDate is HEAD's commit time as scripts/build stamps it.
func commitDate(t *testing.T, dir string) string {
	t.Helper()
	sec, err := strconv.ParseInt(strings.TrimSpace(run(t, dir, "git", "show", "-s", "--format=%ct", "HEAD")), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return time.Unix(sec, 0).UTC().Format("2006-01-02T15:04:05Z")
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out.String())
	}
	return out.String()
}

// Two builds of one commit from two checkouts at different paths are
// byte-identical and name neither path. One binary stands for all (they
// share the flags and scripts/build); fluzo-store links SQLite through cgo,
// the part most likely to leak a path. The Go build cache is shared, as in
// any real rebuild; without -trimpath the cached objects would differ by
// directory and the binaries with them.
func TestBuildIsReproducible(t *testing.T) {
	var bins [2][]byte
	var dirs [2]string
	for i := range bins {
		dirs[i] = cloneHEAD(t)
		out := filepath.Join(t.TempDir(), "bin")
		run(t, dirs[i], "./scripts/build", "--out", out, "--version", "9.9.9", "fluzo-store")
		b, err := os.ReadFile(filepath.Join(out, "fluzo-store"))
		if err != nil {
			t.Fatal(err)
		}
		bins[i] = b
	}
	if !bytes.Equal(bins[0], bins[1]) {
		t.Fatalf("two builds of one commit differ (%d and %d bytes)", len(bins[0]), len(bins[1]))
	}
	for _, d := range dirs {
		if bytes.Contains(bins[0], []byte(d)) {
			t.Errorf("the binary contains its build directory %s", d)
		}
	}
	exe := filepath.Join(t.TempDir(), "fluzo-store")
	os.WriteFile(exe, bins[0], 0o755)
	commit := revParse(t, dirs[0])[:12]
	if got, want := strings.TrimSpace(run(t, "", exe, "--version")), "fluzo-store 9.9.9 ("+commit+" "+commitDate(t, dirs[0])+")"; got != want {
		t.Errorf("--version = %q, want %q", got, want)
	}
}

// Without --version a build keeps the source's "-dev" version, and a tree
// with uncommitted changes to tracked files says so after the commit.
func TestDevelopmentBuildSaysSo(t *testing.T) {
	dir := cloneHEAD(t)
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "bin")
	run(t, dir, "./scripts/build", "--out", out, "fluzo-store")
	commit := revParse(t, dir)[:12]
	got := strings.TrimSpace(run(t, "", filepath.Join(out, "fluzo-store"), "--version"))
	want := regexp.MustCompile(`^fluzo-store \S+-dev \(` + commit + `-dirty ` + commitDate(t, dir) + `\)$`)
	if !want.MatchString(got) {
		t.Errorf("--version = %q, want it to match %s", got, want)
	}
}
