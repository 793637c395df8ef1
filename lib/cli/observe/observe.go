// Package observe is the fluzo-observe command: read-only replay and
// diagnostics of stored tasks, the local telemetry archive's health and
// purge, and Laya evaluation datasets.
package observe

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

// Command returns the fluzo-observe command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:    "fluzo-observe",
		Usage:   "replay, diagnose and inspect Fluzo telemetry",
		Version: core.Version,
		Description: `fluzo-observe reads a workspace's durable history and its local telemetry
archive (.fluzodrive/telemetry) without executing anything or contacting a
provider. replay and diag reconstruct a task from stored events; health
reports the telemetry sinks, queues, drops and exporter state; eval exports
Laya evaluation datasets and records human labels; purge removes the local
archive (never remote data).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workspace", Aliases: []string{"C"}, Usage: "workspace `DIR` (default: the nearest directory upwards holding .fluzodrive or .fluzo)"},
		},
		Commands: []*cli.Command{replayCommand(), diagCommand(), evalCommand(), healthCommand(), probeCommand(), purgeCommand()},
	}
}

// Main runs fluzo-observe.
func Main() int { return runner.Main(Command()) }

// workspace resolves the workspace root: --workspace, else the nearest
// ancestor of the working directory holding .fluzodrive or .fluzo.
func workspace(c *cli.Command) (string, error) {
	if w := c.Root().String("workspace"); w != "" {
		abs, err := filepath.Abs(w)
		if err != nil {
			return "", core.Wrap(err, core.CodeUsage, "cannot resolve --workspace "+w)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", core.Errorf(core.CodeUsage, "--workspace %s is not a directory", w).WithHint("pass an existing workspace directory")
		}
		return abs, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", core.Wrap(err, core.CodeFailed, "cannot read the working directory")
	}
	for d := cwd; ; d = filepath.Dir(d) {
		for _, marker := range []string{".fluzodrive", ".fluzo"} {
			if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
				return d, nil
			}
		}
		if filepath.Dir(d) == d {
			return cwd, nil
		}
	}
}

func driveDir(ws string) string { return filepath.Join(ws, ".fluzodrive") }

// writeJSON writes one JSONL record.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return core.Wrap(err, core.CodeInternal, "cannot encode output record")
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
