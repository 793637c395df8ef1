// Package admit is the fluzo-admit command: the policy and settings
// authority as a command line tool (policy checks, .fluzo validation,
// display, creation and editing, and the workspace-owner lock).
package admit

import (
	"path/filepath"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	_ "github.com/josecorral/fluzo/lib/policy" // registers the grant-spec check used by config validation
	"github.com/urfave/cli/v3"
)

// Command returns the fluzo-admit command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:    "fluzo-admit",
		Usage:   "policy checks, .fluzo settings, endpoint consent and workspace ownership",
		Version: core.Version,
		Description: `fluzo-admit decides whether work may happen. "check" evaluates proposed
operations against the workspace policy, grants and YOLO and answers allow,
deny or ask, one JSON line per operation. "config" validates, shows, creates
and edits the workspace's .fluzo through the typed settings registry, so every
key has one definition, one default and one valid range. "consent" reviews,
records and revokes the user's consent to the configuration's destinations,
grants and tool environment, without which no owner starts. "lock" shows which
process owns the workspace. "mcp" lists the configured MCP servers and, on
explicit request, connects to one and lists its tools.

Precedence of settings: built-in defaults, then the workspace .fluzo (or
--config FILE), then explicit --set KEY=VALUE overrides. There is no global
settings file, and environment variables never become settings.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workspace", Aliases: []string{"C"}, Value: ".", Usage: "workspace `DIR` whose .fluzo and .fluzodrive are used; inside a git repository, its top level"},
			&cli.StringFlag{Name: "config", Usage: "use `FILE` instead of the workspace's .fluzo"},
			&cli.StringSliceFlag{Name: "set", Usage: "override a setting for this invocation, as `KEY=VALUE` (repeatable)"},
		},
		Before:   resolveWorkspace,
		Commands: []*cli.Command{checkCommand(), configCommand(), consentCommand(), lockCommand(), mcpCommand()},
	}
}

// Main runs fluzo-admit.
func Main() int { return runner.Main(Command()) }

// configPath is the file selected by --config or the workspace's .fluzo.
func configPath(c *cli.Command) string {
	if p := c.String("config"); p != "" {
		return p
	}
	return filepath.Join(c.String("workspace"), config.FileName)
}

// openConfig loads the selected file with the --set overrides.
func openConfig(c *cli.Command) (*config.Config, error) {
	return config.Open(config.Options{Workspace: c.String("workspace"), File: c.String("config"), Overrides: c.StringSlice("set")})
}
