package admit

import (
	"context"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
	"github.com/urfave/cli/v3"
)

// resolveWorkspace turns --workspace (default: the current directory) into
// the git working tree's top level (relative to the current directory
// when that is shorter to read), as fluzo-agent and fluzo-store resolve
// it, so that from any subdirectory fluzo-admit reads the same .fluzo and
// the same owner lock as the runtime. Outside a git working tree the
// directory is used as given.
func resolveWorkspace(ctx context.Context, c *cli.Command) (context.Context, error) {
	dir := c.String("workspace")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return ctx, core.Errorf(core.CodeConfigurationRequired, "workspace %s is not a directory", dir).
			WithHint("pass --workspace (-C) with an existing directory")
	}
	top, err := gitx.TopLevel(ctx, dir, os.Environ())
	if err != nil || !filepath.IsAbs(top) {
		return ctx, nil
	}
	return ctx, c.Set("workspace", relativeToCwd(top))
}

// relativeToCwd keeps messages and provenance short (".fluzo",
// "../.fluzo") when the workspace is the current directory or above it.
func relativeToCwd(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		return dir
	}
	return rel
}
