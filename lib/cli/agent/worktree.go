package agent

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/worktree"
	"github.com/urfave/cli/v3"
	"golang.org/x/sys/unix"
)

// worktreeCommands are the review commands of worktree tasks (run
// --worktree): review, accept, reject and repair.
func worktreeCommands() []*cli.Command {
	return []*cli.Command{errorsAsJSON(reviewCommand()), errorsAsJSON(acceptCommand()), errorsAsJSON(rejectCommand()), repairCommand()}
}

// errorsAsJSON makes a --json review command print its failure as one
// {"type":"error",...} record on stdout too (the message stays on
// stderr), so a script reads one stream.
func errorsAsJSON(cmd *cli.Command) *cli.Command {
	runner.OnError(cmd, func(ctx context.Context, c *cli.Command, err error) {
		if jsonRequested(ctx, c) {
			writeRecord(c, core.NewErrorRecord("", err))
		}
	})
	return cmd
}

func taskArg(c *cli.Command) (string, error) {
	if c.Args().Len() != 1 {
		return "", runner.Usage(c, "%s needs exactly one TASK id", c.Name)
	}
	return c.Args().First(), nil
}

func reviewCommand() *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "show the change a worktree task made (its worktree against its base commit)",
		ArgsUsage: "TASK",
		Description: `Shows what a task run with --worktree changed in its worktree: every file it
added, modified or deleted against the commit the worktree started from
(committed, staged, unstaged and untracked changes alike; ignored files
excluded), then the patch. TASK may be the task that made the worktree or a
repair follow-up of it. review only reads: it takes no lock, writes no index
and commits nothing.

--json prints one record {"v":1,"type":"worktree.review",...} with the
worktree's state, path (relative to the workspace), branch, base, the tasks
that ran in it, the files (path, status, added, deleted; null counts for
binary files), the diff id (SHA-256 of the patch) and the patch itself.
--patch prints only the patch, byte for byte when redirected, for git
apply (on a terminal, control characters are escaped).`,
		Flags: []cli.Flag{
			workspaceFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print one JSON record"},
			&cli.BoolFlag{Name: "patch", Usage: "print only the patch (git apply reads it)"},
		},
		Action: reviewAction,
	}
}

// reviewRecord is review's --json record.
type reviewRecord struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	worktree.Record
	DiffID string          `json:"diff_id,omitempty"`
	Files  []worktree.File `json:"files"`
	Patch  string          `json:"patch"`
}

func reviewAction(ctx context.Context, c *cli.Command) error {
	task, err := taskArg(c)
	if err != nil {
		return err
	}
	rec, ch, err := reviewed(ctx, c.String("workspace"), task)
	if err != nil {
		return err
	}
	w := c.Root().Writer
	switch {
	case c.Bool("patch"):
		if isTerminal(w) {
			// Untrusted bytes never reach a terminal raw (DESIGN §7
			// invariant 10); redirected, the patch is exact.
			_, err := io.WriteString(w, termsafe.Text(string(ch.Patch)))
			return err
		}
		_, err := w.Write(ch.Patch)
		return err
	case c.Bool("json"):
		out := reviewRecord{V: core.WireVersion, Type: "worktree.review", Record: rec, DiffID: ch.ID, Files: ch.Files, Patch: string(ch.Patch)}
		if out.Files == nil {
			out.Files = []worktree.File{}
		}
		line, err := core.MarshalVerbatim(out)
		if err != nil {
			return err
		}
		_, err = w.Write(append(line, '\n'))
		return err
	}
	printReview(w, rec, ch)
	return nil
}

// reviewed reads task's worktree record and, while the worktree exists,
// its change. It opens the store read-only.
func reviewed(ctx context.Context, dir, task string) (worktree.Record, worktree.Change, error) {
	if dir == "" {
		dir = "."
	}
	ws, err := store.ResolveWorkspace(ctx, dir)
	if err != nil {
		return worktree.Record{}, worktree.Change{}, err
	}
	st, err := store.OpenReadOnly(ctx, ws)
	if err != nil {
		return worktree.Record{}, worktree.Change{}, err
	}
	defer st.Close()
	rec, err := worktree.Lookup(ctx, st.Queries, task)
	if err != nil {
		return rec, worktree.Change{}, err
	}
	if rec.State == worktree.StateRejected || rec.State == worktree.StateRemoved {
		return rec, worktree.Change{Files: []worktree.File{}}, nil
	}
	ch, err := worktree.Diff(ctx, ws.Root, rec.Binding)
	return rec, ch, err
}

func printReview(w io.Writer, rec worktree.Record, ch worktree.Change) {
	fmt.Fprintf(w, "task %s: worktree %s, branch %s from %.12s (%s)\n", termsafe.Line(rec.Task), termsafe.Line(rec.Rel), termsafe.Line(rec.Branch), rec.Base, rec.State)
	if len(rec.Tasks) > 1 {
		fmt.Fprintf(w, "tasks: %s\n", termsafe.Line(strings.Join(rec.Tasks, ", ")))
	}
	if rec.SourceDirty {
		fmt.Fprintln(w, "note: your working tree had uncommitted changes when the task started; they are not in the worktree")
	}
	if rec.State == worktree.StateRejected || rec.State == worktree.StateRemoved {
		fmt.Fprintln(w, "the worktree and its branch were removed; nothing is left to review")
		return
	}
	if len(ch.Files) == 0 {
		fmt.Fprintln(w, "no changes")
		return
	}
	for _, f := range ch.Files {
		fmt.Fprintf(w, "  %-8s %s %s\n", f.Status, termsafe.Line(f.Path), lineCounts(f))
	}
	fmt.Fprintf(w, "diff id %s\n\n", ch.ID)
	w.Write([]byte(termsafe.Text(string(ch.Patch))))
	if rec.State == worktree.StateActive {
		t := termsafe.Line(rec.Task)
		fmt.Fprintf(w, "\nnext: 'fluzo-agent accept %s' applies it to your working tree (uncommitted); 'fluzo-agent repair %s --task TEXT' continues it; 'fluzo-agent reject %s --yes' discards it\n", t, t, t)
	}
}

func lineCounts(f worktree.File) string {
	if f.Binary || f.Added == nil {
		return "(binary)"
	}
	return fmt.Sprintf("+%d -%d", *f.Added, *f.Deleted)
}

func acceptCommand() *cli.Command {
	return &cli.Command{
		Name:      "accept",
		Usage:     "apply a worktree task's change to your working tree as uncommitted changes",
		ArgsUsage: "TASK",
		Description: `Applies the change review shows to the main working tree: files are written,
nothing is staged or committed, HEAD and every branch stay where they are.
accept takes the workspace's owner lock (workspace_busy while a task runs).

It refuses, changing nothing (exit 1, worktree_conflict), when a file the
change touches has your own changes in the working tree (staged, unstaged or
untracked) or changed on your branch since the task's base commit; the
error names the files. Commit, stash or discard your changes to them and
accept again, or print the patch (review --patch) and merge it by hand.
--diff-id refuses a change other than the one you reviewed. The worktree
stays after accept; reject --yes or a purge removes it.`,
		Flags: []cli.Flag{
			workspaceFlag(),
			&cli.StringFlag{Name: "diff-id", Usage: "accept only if the change is still the reviewed one (`ID` from review)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON record"},
		},
		Action: acceptAction,
	}
}

func acceptAction(ctx context.Context, c *cli.Command) error {
	task, err := taskArg(c)
	if err != nil {
		return err
	}
	w, err := worktree.OpenWriter(ctx, dirOf(c))
	if err != nil {
		return err
	}
	defer w.Close()
	rec, ch, err := w.Accept(ctx, task, c.String("diff-id"))
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return writeRecord(c, struct {
			V    int    `json:"v"`
			Type string `json:"type"`
			worktree.Record
			worktree.Change
		}{core.WireVersion, core.EvWorktreeAccepted, rec, ch})
	}
	fmt.Fprintf(c.Root().Writer, "accepted task %s: %d file(s) written to your working tree, uncommitted (nothing staged or committed): %s\n",
		termsafe.Line(rec.Task), len(ch.Files), termsafe.Line(strings.Join(ch.Paths(), ", ")))
	fmt.Fprintf(c.Root().Writer, "the worktree stays at %s; 'fluzo-agent reject %s --yes' removes it\n", termsafe.Line(rec.Rel), termsafe.Line(rec.Task))
	return nil
}

func rejectCommand() *cli.Command {
	return &cli.Command{
		Name:      "reject",
		Usage:     "remove a worktree task's worktree and branch (its change is discarded)",
		ArgsUsage: "TASK",
		Description: `Removes the task's worktree (.fluzodrive/worktrees/TASK) with whatever it
holds, and its branch fluzo/TASK. An unaccepted change is lost, so reject
needs --yes (exit 10 without it). After accept, reject only removes the
worktree: the accepted change stays in your working tree. reject takes the
workspace's owner lock and never touches your working tree.`,
		Flags: []cli.Flag{
			workspaceFlag(),
			&cli.BoolFlag{Name: "yes", Usage: "confirm: delete the worktree and its branch"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON record"},
		},
		Action: rejectAction,
	}
}

func rejectAction(ctx context.Context, c *cli.Command) error {
	task, err := taskArg(c)
	if err != nil {
		return err
	}
	if !c.Bool("yes") {
		return core.Errorf(core.CodeConfirmationRequired, "nothing was removed: rejecting deletes the worktree of %s and its branch, with any change not accepted", task).
			WithHint("review it first ('fluzo-agent review %s'), then run 'fluzo-agent reject %s --yes'", task, task)
	}
	w, err := worktree.OpenWriter(ctx, dirOf(c))
	if err != nil {
		return err
	}
	defer w.Close()
	rec, err := w.Reject(ctx, task)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		typ := core.EvWorktreeRejected
		if rec.State == worktree.StateRemoved {
			typ = core.EvWorktreeRemoved
		}
		return writeRecord(c, struct {
			V    int    `json:"v"`
			Type string `json:"type"`
			worktree.Record
		}{core.WireVersion, typ, rec})
	}
	fmt.Fprintf(c.Root().Writer, "%s task %s: removed worktree %s and branch %s\n", rec.State, termsafe.Line(rec.Task), termsafe.Line(rec.Rel), termsafe.Line(rec.Branch))
	return nil
}

func repairCommand() *cli.Command {
	return endsWithResult(&cli.Command{
		Name:      "repair",
		Usage:     "continue a worktree task in its worktree with review feedback",
		ArgsUsage: "TASK",
		Description: `Runs a follow-up task in TASK's worktree, in the same session: its request is
--task (the feedback) with the original request for context, and it
verifies with the original's command unless --verify or --no-verify says
otherwise. The original task stays as it ended; the follow-up records
worktree.attached (which worktree and feedback), and the worktree's task
records worktree.repair naming it. review, accept and reject then cover the
worktree's whole change, whichever of its tasks you name. Like run, the
last line is a {"type":"result",...} record.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "the feedback, in plain words", Required: true},
			workspaceFlag(),
			configFlag(), setFlag(), consentFlag(),
			&cli.StringFlag{Name: "verify", Usage: "verification `COMMAND` (default: the original task's)"},
			&cli.BoolFlag{Name: "no-verify", Usage: "waive verification explicitly (recorded)"},
			&cli.StringSliceFlag{Name: "allow", Usage: "exact task-scoped grant `SPEC` (repeatable)"},
			&cli.BoolFlag{Name: "yolo", Usage: "approve what would ask, for this run only"},
			&cli.IntFlag{Name: "max-turns", Usage: "turn budget `N` (default: harness.max_turns)"},
			&cli.BoolFlag{Name: "json", Usage: "print every event and live update as JSON lines"},
		},
		Action: repairAction,
	})
}

func repairAction(ctx context.Context, c *cli.Command) error {
	task, err := taskArg(c)
	if err != nil {
		return err
	}
	if strings.TrimSpace(c.String("task")) == "" {
		return core.Errorf(core.CodeUsage, "--task is empty").
			WithHint("say what to change in plain words, e.g. --task 'also handle tabs'; see '%s --help'", c.FullName())
	}
	if err := verifyConflict(c); err != nil {
		return err
	}
	p := &printer{w: c.Root().Writer, json: c.Bool("json")}
	owner, err := openOwner(ctx, c, p)
	if err != nil {
		return err
	}
	defer owner.Close()
	res := owner.Repair(ctx, task, c.String("task"), lagent.TaskOptions{
		Verify: c.String("verify"), NoVerify: c.Bool("no-verify"), Allow: c.StringSlice("allow"),
		Yolo: c.Bool("yolo"), MaxTurns: int(c.Int("max-turns")),
	})
	p.result(res)
	return runner.Silent{Code: res.ExitCode()}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

func dirOf(c *cli.Command) string {
	if d := c.String("workspace"); d != "" {
		return d
	}
	return "."
}

func writeRecord(c *cli.Command, v any) error {
	line, err := core.MarshalVerbatim(v)
	if err != nil {
		return err
	}
	_, err = c.Root().Writer.Write(append(line, '\n'))
	return err
}
