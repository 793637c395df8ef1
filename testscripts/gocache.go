package testscripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// outerGoCaches are the build and module caches of the go command running
// the tests, looked up once.
var outerGoCaches = sync.OnceValues(func() ([2]string, error) {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		return [2]string{}, fmt.Errorf("go env GOCACHE GOMODCACHE: %v", err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return [2]string{}, fmt.Errorf("go env GOCACHE GOMODCACHE printed %q", out)
	}
	return [2]string{f[0], f[1]}, nil
})

// shareGoCaches lets the go commands a script runs — directly, or as the
// agent's verification through fluzo-tool, whose environment keeps HOME but
// drops GOCACHE — reuse the outer caches instead of rebuilding the standard
// library under the fresh HOME (a minute per script on a loaded machine).
// Both caches are safe for concurrent use by several go commands. The
// variables cover direct use; links at the default locations under HOME
// ($HOME/.cache/go-build, $HOME/go/pkg/mod) cover the tool's environment,
// the way rust-toolchain links ~/.rustup and ~/.cargo.
func shareGoCaches(env *testscript.Env, home string) error {
	caches, err := outerGoCaches()
	if err != nil {
		return err
	}
	build, mod := caches[0], caches[1]
	env.Setenv("GOCACHE", build)
	env.Setenv("GOMODCACHE", mod)
	for dst, src := range map[string]string{
		filepath.Join(home, ".cache", "go-build"): build,
		filepath.Join(home, "go", "pkg", "mod"):   mod,
	} {
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		if err := os.Symlink(src, dst); err != nil {
			return err
		}
	}
	return nil
}
