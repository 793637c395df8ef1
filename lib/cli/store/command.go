// Package storecli is the fluzo-store command: the durable store as a
// Unix tool. Reads open the store read-only (safe while the runtime owner
// writes); init, purge and fixture open it for writing.
package storecli

import (
	"context"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

// Command returns the fluzo-store command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:    "fluzo-store",
		Usage:   "the durable Fluzo store as a command: events, sessions, tasks, history, checks",
		Version: core.Version,
		Description: `fluzo-store reads and maintains a repository's private Fluzo state in
.fluzodrive/state.sqlite3 (SQLite, WAL) and .fluzodrive/artifacts/.

Listing, showing and streaming never execute anything or contact a provider,
and open the store read-only, so they are safe while a task runs. "events"
prints one JSON envelope per line in commit order, for gojq, jq or any
JSONL tool. "history purge" deletes only what its preview names, only with
--yes, and never an active session, the workspace, .fluzo or credentials.`,
		Flags: []cli.Flag{workspaceFlag()},
		Commands: []*cli.Command{
			initCommand(), eventsCommand(), sessionsCommand(), tasksCommand(), showCommand(),
			historyCommand(), checkCommand(), statsCommand(), fixtureCommand(),
		},
	}
}

// Main runs fluzo-store.
func Main() int { return runner.Main(Command()) }

func workspaceFlag() cli.Flag {
	return &cli.StringFlag{
		Name:    "workspace",
		Aliases: []string{"C"},
		Usage:   "use the repository containing `DIR` (default: the git top level of the current directory)",
		Sources: cli.EnvVars("FLUZO_WORKSPACE"),
	}
}

func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON Lines instead of aligned text"}
}

// workspace resolves --workspace (given on the command or the root).
func workspace(ctx context.Context, c *cli.Command) (store.Workspace, error) {
	return store.ResolveWorkspace(ctx, c.String("workspace"))
}

// openRead opens the store read-only.
func openRead(ctx context.Context, c *cli.Command) (*store.Store, error) {
	ws, err := workspace(ctx, c)
	if err != nil {
		return nil, err
	}
	return store.OpenReadOnly(ctx, ws)
}

// openWrite opens the store for writing (creating and migrating it).
func openWrite(ctx context.Context, c *cli.Command) (*store.Store, error) {
	ws, err := workspace(ctx, c)
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, ws)
}
