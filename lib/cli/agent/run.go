package agent

import (
	"context"
	"strings"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

func runCommand() *cli.Command {
	return endsWithResult(&cli.Command{
		Name:  "run",
		Usage: "run one task headless in the workspace, in place (or in a worktree of its own), and print its result",
		Description: `Runs the agent loop on --task in the current git working tree (no branches,
stashes, staging or commits unless the model calls a policy-approved git
tool). Every tool call is evaluated by policy first; an operation that needs
approval stops the run with permission_required (exit 4), since nobody can
answer headless. Give exact task-scoped grants with --allow.

The task is completed (exit 0) only when its verification command (--verify,
harness.verify_command, or a test command quoted in the task) passes at the
final workspace state; otherwise the result says why. A task with no
verification command fails at once with verification_not_configured unless
--no-verify waives verification explicitly: the waiver is recorded as a
verification.waived event and the result says "verification":"waived". The last line is
always a {"type":"result",...} record; with --json also when the run never
started (a usage, configuration or workspace error: reason setup_failed, the
error's code as status, the message on stderr too).

With --worktree the task runs in a git worktree of its own instead:
.fluzodrive/worktrees/TASK on a new branch fluzo/TASK made from HEAD (your
uncommitted changes are not in it). The agent edits and verifies there;
your working tree is untouched and nothing is committed. The task records
worktree.created and its result names the worktree; then 'review TASK'
shows the change, 'accept TASK' applies it to your working tree as
uncommitted changes, 'repair TASK --task TEXT' continues it with feedback
and 'reject TASK --yes' removes the worktree and its branch.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "the request, in plain words", Required: true},
			workspaceFlag(),
			configFlag(), setFlag(), consentFlag(), backendFlag(),
			&cli.StringFlag{Name: "verify", Usage: "verification `COMMAND` (default: harness.verify_command, then a test command quoted in the task)"},
			&cli.BoolFlag{Name: "no-verify", Usage: "waive verification explicitly (recorded); without a command or this flag the task fails verification_not_configured"},
			&cli.StringSliceFlag{Name: "allow", Usage: "exact task-scoped grant `SPEC`, e.g. 'exec:cargo test' (repeatable)"},
			&cli.BoolFlag{Name: "yolo", Usage: "approve what would ask, for this run only (denials, budgets and limits still hold)"},
			&cli.IntFlag{Name: "max-turns", Usage: "turn budget `N` (default: harness.max_turns)"},
			&cli.BoolFlag{Name: "worktree", Usage: "run in a new git worktree (.fluzodrive/worktrees/TASK, branch fluzo/TASK from HEAD) instead of in place; review, accept, repair or reject its change afterwards"},
			&cli.BoolFlag{Name: "json", Usage: "print every event and live update as JSON lines"},
		},
		Action: runAction,
	})
}

func runAction(ctx context.Context, c *cli.Command) error {
	lagent.MarkPhase("cli_ready") // runtime initialised, flags parsed
	// Required only checks that --task was given; an empty request would
	// start a task the model can only guess at.
	if strings.TrimSpace(c.String("task")) == "" {
		return core.Errorf(core.CodeUsage, "--task is empty").
			WithHint("say what to do in plain words, e.g. --task 'fix the failing test'; see '%s --help'", c.FullName())
	}
	if err := verifyConflict(c); err != nil {
		return err
	}
	if c.Int("max-turns") < 0 {
		return runner.Usage(c, "--max-turns must be a positive number")
	}
	leanHeadless()
	p := &printer{w: c.Root().Writer, json: c.Bool("json")}
	owner, err := openOwnerStarting(ctx, c, p, !c.Bool("worktree"))
	if err != nil {
		return err
	}
	defer owner.Close()
	res := owner.Run(ctx, lagent.TaskOptions{
		Request: c.String("task"), Verify: c.String("verify"), NoVerify: c.Bool("no-verify"), Allow: c.StringSlice("allow"),
		Yolo: c.Bool("yolo"), MaxTurns: int(c.Int("max-turns")), Worktree: c.Bool("worktree"),
	})
	p.result(res)
	return runner.Silent{Code: res.ExitCode()}
}
