// Package testscripts runs every toolkit binary as a black box against the
// txtar scripts in this directory (cmd/go's script-test style). Each script
// gets its own temporary HOME, XDG directories and working directory.
package testscripts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/josecorral/fluzo/lib/cli/registry"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	cmds := map[string]func(){}
	for _, b := range registry.All() {
		main := b.Main
		cmds[b.Name] = func() { os.Exit(main()) }
	}
	testscript.Main(m, cmds)
}

func TestScripts(t *testing.T) {
	testscript.Run(t, Params())
}

// Params returns the shared testscript setup: isolated home and XDG
// directories, a git identity, the outer Go build and module caches, and
// the repository root for fixtures.
func Params() testscript.Params {
	root, _ := filepath.Abs("..")
	return testscript.Params{
		Dir:                 ".",
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".home")
			for _, d := range []string{home, filepath.Join(home, ".config"), filepath.Join(home, ".local", "state"), filepath.Join(home, ".run")} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					return err
				}
			}
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			env.Setenv("XDG_RUNTIME_DIR", filepath.Join(home, ".run"))
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("GIT_AUTHOR_NAME", "Fluzo Test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@fluzo.invalid")
			env.Setenv("GIT_COMMITTER_NAME", "Fluzo Test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@fluzo.invalid")
			env.Setenv("FLUZO_REPO", root)
			return shareGoCaches(env, home)
		},
		Cmds:      Commands(),
		Condition: condition,
	}
}
