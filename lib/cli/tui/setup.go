package tui

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	ltui "github.com/josecorral/fluzo/lib/tui"
	"github.com/josecorral/fluzo/lib/tui/setup"
	"github.com/josecorral/fluzo/lib/tui/theme"
	"golang.org/x/sys/unix"
)

// setupPlan is what happens before the session: nothing (a valid file,
// or an explicit --config), the setup flow, or the diagnosis of a
// malformed file.
type setupPlan struct {
	env     setup.Env
	run     bool
	loadErr error // the malformed file's error, returned after the diagnosis
}

// planSetup decides from the files alone; it never contacts the
// endpoint, so a valid .fluzo skips setup even when its server is down.
// Without a terminal there is no flow: a missing file is
// configuration_required (PRD §26.1), a malformed one its diagnostics.
func planSetup(ctx context.Context, dir, cfgFile string, init bool, interactive bool) (setupPlan, error) {
	if cfgFile != "" && !init {
		return setupPlan{}, nil // an explicit file is the person's choice: serve reports it
	}
	if !init && validFileAtLikelyTop(dir) {
		return setupPlan{}, nil
	}
	ws, err := store.ResolveWorkspace(ctx, dir)
	if err != nil {
		if init {
			return setupPlan{}, err
		}
		return setupPlan{}, nil // serve reports a workspace it cannot use
	}
	root := ws.Root // where serve looks for .fluzo
	path := cfgFile
	if path == "" {
		path = filepath.Join(root, config.FileName)
	}
	env := setup.Env{Path: path, Workspace: root, Init: init, Cleartext: cleartext}
	cfg, err := config.Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || core.CodeOf(err) == core.CodeConfigurationRequired && !exists(path):
		if !interactive {
			return setupPlan{}, core.Errorf(core.CodeConfigurationRequired, "%s has no .fluzo and setup needs a terminal", root).
				WithHint("run fluzo init in a terminal, or 'fluzo-admit config init' to write a commented file with every default")
		}
		return setupPlan{env: env, run: true}, nil
	case len(config.Diagnostics(err)) > 0:
		if !interactive {
			return setupPlan{}, err
		}
		env.Problems = config.Diagnostics(err)
		return setupPlan{env: env, run: true, loadErr: err}, nil
	case err != nil:
		return setupPlan{}, err
	case init:
		env.Existing = cfg
		return setupPlan{env: env, run: true}, nil
	}
	return setupPlan{}, nil
}

// validFileAtLikelyTop is the common start without a git process: the
// nearest directory at or above dir holding a .git entry is where git's
// own discovery ends in nearly every repository, and a .fluzo there that
// loads cleanly means there is nothing to set up. The two git processes
// of the hardened resolution (its config listing and rev-parse) sat
// before the first frame on every launch. Whatever this guess misses
// (a missing or malformed file, an unusual layout) goes the full way, and
// serve still resolves the workspace itself and reports what it finds.
func validFileAtLikelyTop(dir string) bool {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return false
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
			_, err := config.Load(filepath.Join(abs, config.FileName))
			return err == nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return false
		}
		abs = parent
	}
}

// cleartext is lib/consent's rule for the warned plain-HTTP exception.
func cleartext(url string) bool { return consent.Classify(url) == consent.ClassCleartext }

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// isTerminal reports whether f is a terminal (the flow needs one for
// input and output).
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// runSetup shows the flow and says whether the session should open.
func runSetup(ctx context.Context, plan setupPlan, themeName string, caps theme.Caps, overrides []string, cfgFile string) (bool, error) {
	seam := &fileSeam{ctx: ctx, root: plan.env.Workspace, path: plan.env.Path, cfgFile: cfgFile, overrides: overrides}
	out, err := ltui.RunSetup(ctx, ltui.SetupOptions{Theme: themeName, Caps: caps, Env: plan.env, Seam: seam, Discover: discoverModels})
	if err != nil {
		return false, core.Wrap(err, core.CodeFailed, err.Error())
	}
	if plan.loadErr != nil {
		return false, plan.loadErr // the file stays as it was; its status says so
	}
	if !out.Written {
		if plan.env.Existing != nil {
			return false, nil // fluzo init kept the existing file
		}
		return false, core.Errorf(core.CodeConfigurationRequired, "setup ended before writing %s", plan.env.Path).
			WithHint("run fluzo init to set up again, or 'fluzo-admit config init' for a commented file with every default")
	}
	return out.Open, nil
}
