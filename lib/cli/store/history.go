package storecli

import (
	"context"
	"fmt"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func historyCommand() *cli.Command {
	return &cli.Command{
		Name:  "history",
		Usage: "list or purge this repository's stored sessions",
		Commands: []*cli.Command{
			{
				Name:   "list",
				Usage:  "list stored sessions with their sizes",
				Flags:  []cli.Flag{jsonFlag()},
				Action: runHistoryList,
			},
			purgeCommand(),
		},
	}
}

func runHistoryList(ctx context.Context, c *cli.Command) error {
	s, err := openRead(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	sums, err := s.ListSessionSummaries(ctx)
	if err != nil {
		return err
	}
	if !c.Bool("json") {
		fmt.Fprintf(c.Root().Writer, "repository %s\nstore      %s\n\n", termsafe.Line(s.Workspace().Root), termsafe.Line(s.Workspace().Drive()))
	}
	return printSessions(c, sums, true)
}

func purgeCommand() *cli.Command {
	return &cli.Command{
		Name:  "purge",
		Usage: "delete one session, or every session of this repository, with exclusively owned artifacts",
		Description: `Deletes the selected sessions' records (tasks, attempts, operations, messages,
events ...) and the artifacts only they reference; artifacts shared with a
remaining session are kept. Sessions with unfinished work while the workspace
owner runs are refused (exit 11). --dry-run prints exactly what would go and
changes nothing. Without --yes nothing is deleted: the preview is printed and
the command exits 10 (confirmation_required). The preview names the
repository and its .fluzodrive path; --all never reaches another repository.
Purge is idempotent: re-running it finishes an interrupted purge; a --session
that is not in the store is reported not_found (exit 1). The eval
labels of the purged sessions' observations (.fluzodrive/eval/labels.jsonl)
go with them: a label describes history that no longer exists, and it could
never be exported again. It never touches the workspace, .fluzo, credentials
or the telemetry archive (see fluzo-observe purge).

Purge also removes abandoned task worktrees (fluzo-agent run --worktree):
.fluzodrive/worktrees/TASK with its branch fluzo/TASK when the task is not
in the store (or its session is purged now), when its change was accepted,
or when a reject was interrupted. A worktree whose change still waits for
review is kept unless its session is purged. Removing worktrees takes the
workspace's owner lock; while an owner runs they are left (exit 11 if there are
any; a purge with none to remove is not refused).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "purge session `ID`"},
			&cli.BoolFlag{Name: "all", Usage: "purge every session of this repository"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be deleted and change nothing"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "confirm the deletion"},
			jsonFlag(),
		},
		Action: runPurge,
	}
}

func runPurge(ctx context.Context, c *cli.Command) error {
	sel := store.PurgeSelect{Session: c.String("session"), All: c.Bool("all")}
	if (sel.Session == "") == !sel.All {
		return runner.Usage(c, "choose exactly one of --session ID and --all")
	}
	if c.Bool("dry-run") && c.Bool("yes") {
		return runner.Usage(c, "--dry-run and --yes contradict each other")
	}
	ws, err := workspace(ctx, c)
	if err != nil {
		return err
	}
	if !c.Bool("yes") {
		return previewPurge(ctx, c, ws, sel)
	}
	s, err := store.Open(ctx, ws)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := s.Purge(ctx, sel)
	if err != nil {
		return err
	}
	if err := printPurge(c, res.Plan, "purged", &res); err != nil {
		return err
	}
	swept, sweepErr := sweepWorktrees(ctx, s)
	if err := printWorktrees(c, "removed", swept); err != nil {
		return err
	}
	if err := purgeOutcome(res.Plan, res.Failed); err != nil {
		return err
	}
	return sweepErr
}

// previewPurge is both --dry-run and the refusal without --yes. It opens
// the store read-only, so it cannot change anything.
func previewPurge(ctx context.Context, c *cli.Command, ws store.Workspace, sel store.PurgeSelect) error {
	s, err := store.OpenReadOnly(ctx, ws)
	if core.CodeOf(err) == core.CodeNotFound {
		fmt.Fprintf(c.Root().ErrWriter, "fluzo-store: no store in %s; nothing to purge\n", termsafe.Line(ws.Root))
		return nil
	}
	if err != nil {
		return err
	}
	defer s.Close()
	plan, err := s.PlanPurge(ctx, sel)
	if err != nil {
		return err
	}
	if err := printPurge(c, plan, "would purge", nil); err != nil {
		return err
	}
	worktrees, err := plannedWorktrees(ctx, s, plan)
	if err != nil {
		return err
	}
	if err := printWorktrees(c, "would remove", worktrees); err != nil {
		return err
	}
	if c.Bool("dry-run") || (!plan.Deletes() && len(worktrees) == 0) {
		return purgeOutcome(plan, nil)
	}
	return core.Errorf(core.CodeConfirmationRequired, "nothing was deleted: purging needs confirmation").
		WithHint("re-run with --yes to delete what is listed above, or --dry-run to only preview")
}

// purgeOutcome turns refusals and partial failures into exit codes after
// everything else was purged and reported.
func purgeOutcome(plan store.PurgePlan, failed []string) error {
	if refused := plan.Refused(); len(refused) > 0 {
		return core.Errorf(core.CodeWorkspaceBusy, "%d session(s) are active and were not purged (first: %s)", len(refused), refused[0].ID).
			WithHint("stop or detach the running task (fluzo-agent cancel), then purge again")
	}
	if len(failed) > 0 {
		return core.Errorf(core.CodeStorageError, "%d artifact file(s) could not be removed (first: %s)", len(failed), failed[0]).
			WithHint("check permissions under .fluzodrive/artifacts and run the purge again; it retries them")
	}
	// Leftover artifact files were still retried above; the exit status
	// tells a script that the session it named was not there.
	if len(plan.Missing) > 0 {
		return core.Errorf(core.CodeNotFound, "session %s is not in this store (already purged, or a typo)", plan.Missing[0]).
			WithHint("list the sessions with 'fluzo-store sessions'")
	}
	return nil
}

func printPurge(c *cli.Command, plan store.PurgePlan, verb string, res *store.PurgeResult) error {
	w := c.Root().Writer
	if c.Bool("json") {
		out := newJSONL(w)
		if res != nil {
			out.put(record("purge_result", res))
		} else {
			out.put(record("purge_plan", plan))
		}
		return out.flush()
	}
	fmt.Fprintf(w, "repository %s\nstore      %s\n", termsafe.Line(plan.Repository), termsafe.Line(plan.Drive))
	for _, id := range plan.Missing {
		fmt.Fprintf(w, "session %s: not in this store (already purged?)\n", termsafe.Line(id))
	}
	n := 0
	for _, ps := range plan.Sessions {
		if ps.Refused != "" {
			fmt.Fprintf(w, "refused  session %s: %s\n", ps.ID, termsafe.Line(ps.Refused))
			continue
		}
		n++
		fmt.Fprintf(w, "%s session %s (%d tasks, %d events)%s\n", verb, ps.ID, ps.Tasks, ps.Events, syntheticMark(ps.Synthetic))
	}
	fmt.Fprintf(w, "%s %d exclusively owned artifact(s), %s; keeping %d shared artifact(s)\n",
		verb, len(plan.Artifacts), store.FormatBytes(plan.ArtifactBytes), len(plan.Shared))
	if plan.PendingFiles > 0 {
		fmt.Fprintf(w, "%s %d artifact file(s) left by an interrupted purge\n", verb, plan.PendingFiles)
	}
	if plan.Labels > 0 {
		fmt.Fprintf(w, "%s %d eval label(s) of these sessions' observations\n", verb, plan.Labels)
	}
	if n == 0 && plan.PendingFiles == 0 {
		fmt.Fprintln(w, "nothing to purge")
	}
	if res != nil {
		fmt.Fprintf(w, "removed %d artifact file(s)\n", res.FilesRemoved)
		if res.LabelsRemoved > 0 {
			fmt.Fprintf(w, "removed %d eval label(s) of observations no longer stored\n", res.LabelsRemoved)
		}
	}
	fmt.Fprintln(w, "not touched: the workspace, .fluzo, credentials, telemetry archive")
	return nil
}

func syntheticMark(b bool) string {
	if b {
		return " [synthetic]"
	}
	return ""
}
