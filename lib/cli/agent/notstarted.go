package agent

import (
	"context"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

// ReasonNotStarted is the result reason of a run or resume that ended
// before any task or attempt began (a usage error, an unreadable
// configuration, no workspace, a busy owner): the reason the owner gives
// its own setup failures, so scripts see one reason for "never started".
const ReasonNotStarted = "setup_failed"

// endsWithResult makes cmd, run with --json, print a result record for
// every error it ends with, so "the last line is always a result record"
// holds for scripts even when the command never got to run. The message
// still goes to stderr with the usual exit code; without --json (people
// reading) stderr alone says it.
func endsWithResult(cmd *cli.Command) *cli.Command {
	runner.OnError(cmd, func(ctx context.Context, c *cli.Command, err error) {
		if jsonRequested(ctx, c) {
			p := &printer{w: c.Root().Writer, json: true}
			p.result(notStartedResult(err))
		}
	})
	return cmd
}

func notStartedResult(err error) lagent.Result {
	fe := core.AsError(err)
	return lagent.Result{
		V: core.WireVersion, Type: "result", Status: string(fe.Code), Reason: ReasonNotStarted,
		Verification: lagent.Verdict{Verification: lagent.VerifyNotRun, Reason: ReasonNotStarted},
		Error:        fe,
	}
}

// jsonRequested reads --json, also from the raw command line when
// parsing stopped before it (--bogus --json).
func jsonRequested(ctx context.Context, c *cli.Command) bool {
	if c.Bool("json") {
		return true
	}
	for _, a := range runner.Args(ctx) {
		switch a {
		case "--":
			return false
		case "--json", "--json=true", "-json":
			return true
		}
	}
	return false
}
