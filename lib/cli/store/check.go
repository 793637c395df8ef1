package storecli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "check the store's integrity, pragmas, permissions and git exclusion",
		Description: `Prints one JSON finding per line with v, type ("finding"), check, status
(ok, warn or fail), message, hint and path.
Checks: data root (no symlink), owner-only permissions, the owner lock
(a regular owner-only file of yours, not a symlink), git exclusion, schema
version, SQLite integrity and foreign keys, WAL journal mode, gap-free event
sequences, artifact files, the eval label log (.fluzodrive/eval/labels.jsonl:
a plain owner-only file in a plain directory, never a link; labels of
observations no longer stored are a warning), and workspace identity. The store
is opened read-only. Exits 13 (storage_error) when any check fails.`,
		Action: runCheck,
	}
}

func runCheck(ctx context.Context, c *cli.Command) error {
	ws, err := workspace(ctx, c)
	if err != nil {
		return err
	}
	findings := store.Check(ctx, ws)
	out := newJSONL(c.Root().Writer)
	for _, f := range findings {
		out.put(record("finding", f))
	}
	if err := out.flush(); err != nil {
		return err
	}
	if store.Failed(findings) {
		return runner.Silent{Code: core.ExitStorageError}
	}
	return nil
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:  "stats",
		Usage: "print record counts, bytes used and quota utilisation",
		Description: `Quotas (PRD section 22.2): session data and artifacts may use 10 GiB, with a
warning at 80 %, and 1 GiB must stay free on the filesystem. They are
admission thresholds for new work; nothing is ever evicted automatically.`,
		Flags:  []cli.Flag{jsonFlag()},
		Action: runStats,
	}
}

func runStats(ctx context.Context, c *cli.Command) error {
	s, err := openRead(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := s.Stats(ctx, store.DefaultQuota)
	if err != nil {
		return err
	}
	w := c.Root().Writer
	if c.Bool("json") {
		out := newJSONL(w)
		out.put(record("stats", st))
		return out.flush()
	}
	t := newTable(w, "RECORDS", "COUNT")
	for _, name := range store.StatTables() {
		t.row(name, strconv.FormatInt(st.Counts[name], 10))
	}
	t.flush()
	g := st.Storage
	fmt.Fprintf(w, "\ndatabase   %s\nartifacts  %s\nlabels     %s\nused       %s of %s (%.1f %%)%s\nfree disk  %s (reserve %s)%s\n",
		store.FormatBytes(g.DatabaseBytes), store.FormatBytes(g.ArtifactBytes), store.FormatBytes(g.LabelBytes),
		store.FormatBytes(g.UsedBytes), store.FormatBytes(g.LimitBytes), g.Utilization*100, flag(g.Warning, "  WARNING: over 80 %"),
		store.FormatBytes(g.FreeBytes), store.FormatBytes(g.MinFreeBytes), flag(g.FreeBytes < g.MinFreeBytes, "  BLOCKED: below the reserve"))
	return nil
}

func flag(on bool, s string) string {
	if on {
		return s
	}
	return ""
}
