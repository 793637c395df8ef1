package confine

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLookup feeds arbitrary paths to resolution over a fixture full of
// escaping, looping and protected-aliasing symlinks. Whatever resolves must
// be a real, unprotected object beneath the root; reading it must never
// yield the content of a file outside the root or of a protected file.
func FuzzLookup(f *testing.F) {
	for _, seed := range []string{"file.txt", "../outside/secret.txt", "out", "g/config", "a/../.git/config", "self/self/.fluzo",
		"/etc/passwd", "subln/../in", "proc/self/environ", "loop1", "", ".", "..", "sub//inner.txt", "outdir/../ws/file.txt"} {
		f.Add(seed)
	}
	fx := newFixture(f)
	f.Fuzz(func(t *testing.T, p string) {
		n, err := fx.root.Lookup(p)
		if err != nil {
			return
		}
		if n.Rel == "" || strings.HasPrefix(n.Rel, "/") || strings.HasPrefix(n.Rel, "..") {
			t.Fatalf("%q resolved to %q, not beneath the root", p, n.Rel)
		}
		first := strings.Split(n.Rel, "/")[0]
		if first == ".git" || first == ".fluzo" || first == ".fluzodrive" {
			t.Fatalf("%q resolved to the protected %q", p, n.Rel)
		}
		real, err := filepath.EvalSymlinks(filepath.Join(fx.ws, n.Rel))
		if err == nil && real != fx.ws && !strings.HasPrefix(real, fx.ws+"/") {
			t.Fatalf("%q resolved to %q outside the root", p, real)
		}
		if n.IsDir() {
			return
		}
		got, err := fx.read(p)
		if err == nil && (strings.Contains(got, "SECRET") || strings.Contains(got, "token") || strings.Contains(got, "[core]")) {
			t.Fatalf("%q read a file it must not: %q", p, got)
		}
	})
}
