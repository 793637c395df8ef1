package tools

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
)

func newClient(t *testing.T, root string, opts ...func(*Options)) *Client {
	t.Helper()
	o := Options{Root: root, AuthFile: filepath.Join(t.TempDir(), "auth.toml"), Grace: 500 * time.Millisecond}
	for _, f := range opts {
		f(&o)
	}
	c, err := NewLocal(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func call(t *testing.T, c *Client, tool string, args any) Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.Call(ctx, tool, raw)
	if err != nil {
		t.Fatalf("%s: transport: %v", tool, err)
	}
	return res
}

func callOK[T any](t *testing.T, c *Client, tool string, args any) T {
	t.Helper()
	res := call(t, c, tool, args)
	var out T
	if err := res.Decode(&out); err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return out
}

func callErr(t *testing.T, c *Client, tool string, args any, code core.Code) *core.Error {
	t.Helper()
	res := call(t, c, tool, args)
	if res.OK {
		t.Fatalf("%s %v succeeded, want %s: %s", tool, args, code, res.Data)
	}
	if res.Err.Code != code {
		t.Fatalf("%s %v: code %s (%s), want %s", tool, args, res.Err.Code, res.Err.Message, code)
	}
	return res.Err
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	// The test's own git must not run a hostile fixture's helpers either.
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "diff.external=", "-c", "core.pager=cat"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@x.invalid",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@x.invalid", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newServerRoot(t *testing.T, dir string) *confine.Root {
	t.Helper()
	r, err := confine.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
