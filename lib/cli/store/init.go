package storecli

import (
	"context"
	"fmt"

	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "create the repository's private store, or explain why it cannot be created",
		Description: `Creates .fluzodrive/ (mode 0700) with state.sqlite3 (0600) and artifacts/.
Private data is written only when git confirms .fluzodrive/ is untracked and
ignored. Without an ignore rule, init stops with configuration_required
(exit 3); --git-exclude adds /.fluzodrive/ to the repository's local exclude
file (as named by "git rev-parse --git-path info/exclude"), never to the
tracked .gitignore. A tracked .fluzodrive or a symlinked data root is refused.
Running init again is harmless; it also migrates an older store (after a
VACUUM INTO backup in .fluzodrive/backups/). A new store is built under a
temporary name and renamed into place complete, so a crash never leaves a
store without a schema; an empty leftover of an older crash is rebuilt. Like
every writer, init runs SQLite's quick_check and refuses a damaged store with
storage_error (exit 13) and a repair hint — unless the last writer closed the
store cleanly and the file is still exactly as it left it (same device, inode,
size, mtime and ctime, no log to replay; .fluzodrive/state.clean). A full disk
is storage_error too.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "git-exclude", Usage: "add /.fluzodrive/ to the repository's local git exclude file (not .gitignore)"},
		},
		Action: runInit,
	}
}

func runInit(ctx context.Context, c *cli.Command) error {
	ws, err := workspace(ctx, c)
	if err != nil {
		return err
	}
	out := c.Root().Writer
	ex, err := store.CheckExclusion(ctx, ws)
	if err != nil {
		return err
	}
	if !ex.Excluded && len(ex.Tracked) == 0 && c.Bool("git-exclude") {
		path, err := store.AddGitExclude(ctx, ws)
		if err != nil {
			return err
		}
		if path != "" {
			fmt.Fprintf(out, "added /%s/ to %s\n", store.DriveName, path)
		}
	}
	s, err := store.Open(ctx, ws)
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Fprintf(out, "store ready: %s (schema v%d)\n", ws.Database(), store.SchemaVersion)
	return nil
}
