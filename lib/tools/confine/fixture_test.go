package confine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// fixture builds a workspace and a directory outside it:
//
//	ws/file.txt, ws/sub/inner.txt, ws/.git/config, ws/.fluzo, ws/.fluzodrive/state
//	ws/in -> sub/inner.txt, ws/subln -> sub, ws/out -> ../outside/secret.txt,
//	ws/outdir -> ../outside, ws/abs -> /etc/passwd, ws/g -> .git
//	outside/secret.txt, outside/auth.toml (the protected credential file)
type fixture struct {
	t       testing.TB
	ws, out string
	auth    string
	root    *Root
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{t: t, ws: filepath.Join(base, "ws"), out: filepath.Join(base, "outside")}
	f.auth = filepath.Join(f.out, "auth.toml")
	files := map[string]string{
		"ws/file.txt": "hello\n", "ws/sub/inner.txt": "inner\n", "ws/.git/config": "[core]\n",
		"ws/.fluzo": "schema_version = 1\n", "ws/.fluzodrive/state": "private\n",
		"outside/secret.txt": "SECRET\n", "outside/auth.toml": "token = \"x\"\n",
	}
	for p, c := range files {
		full := filepath.Join(base, p)
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(c), 0o644))
	}
	links := map[string]string{
		"in": "sub/inner.txt", "subln": "sub", "out": "../outside/secret.txt", "outdir": "../outside",
		"abs": "/etc/passwd", "g": ".git", "cfg": ".fluzo", "drive": ".fluzodrive", "self": ".",
		"proc": "/proc/self/root", "loop1": "loop2", "loop2": "loop1",
	}
	for name, target := range links {
		must(t, os.Symlink(target, filepath.Join(f.ws, name)))
	}
	r, err := Open(f.ws, f.auth)
	must(t, err)
	t.Cleanup(func() { r.Close() })
	f.root = r
	return f
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantCode(t *testing.T, err error, code core.Code, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: succeeded, want %s", what, code)
	}
	if got := core.CodeOf(err); got != code {
		t.Fatalf("%s: code %s (%v), want %s", what, got, err, code)
	}
}

func (f *fixture) read(p string) (string, error) {
	file, _, err := f.root.OpenRead(p)
	if err != nil {
		return "", err
	}
	defer file.Close()
	b := make([]byte, 4096)
	n, _ := file.Read(b)
	return string(b[:n]), nil
}

func (f *fixture) write(p, content string) error {
	t, err := f.root.Locate(p, true)
	if err != nil {
		return err
	}
	defer t.Close()
	return t.Replace([]byte(content))
}

func (f *fixture) outsideUnchanged() {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.out, "secret.txt"))
	must(f.t, err)
	if string(b) != "SECRET\n" {
		f.t.Fatalf("the file outside the root changed: %q", b)
	}
	ents, err := os.ReadDir(f.out)
	must(f.t, err)
	if len(ents) != 2 {
		f.t.Fatalf("files appeared outside the root: %v", ents)
	}
}
