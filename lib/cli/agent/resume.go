package agent

import (
	"context"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

func resumeCommand() *cli.Command {
	return endsWithResult(&cli.Command{
		Name:      "resume",
		Usage:     "continue an interrupted, blocked or failed task in a new attempt",
		ArgsUsage: "TASK",
		Description: `Opening the workspace applies the restart rules first: attempts recorded as
running become interrupted and operations with an intent but no outcome become
unknown. resume then checks the workspace is the same one, starts a new
attempt and trace linked to the previous one, carries the turn and token
consumption forward, and tells the model which operations have an unknown
outcome. Nothing is replayed: running anything again goes through policy
like a new call. Grants and YOLO of earlier attempts are not restored; pass
--allow and --yolo again if needed.`,
		Flags: []cli.Flag{
			workspaceFlag(),
			configFlag(), setFlag(), consentFlag(), backendFlag(),
			&cli.StringFlag{Name: "verify", Usage: "verification `COMMAND` (default: the task's)"},
			&cli.BoolFlag{Name: "no-verify", Usage: "waive verification explicitly for this task (recorded); default: the task's command or earlier waiver"},
			&cli.StringSliceFlag{Name: "allow", Usage: "exact task-scoped grant `SPEC` for this attempt (repeatable)"},
			&cli.BoolFlag{Name: "yolo", Usage: "approve what would ask, for this attempt only"},
			&cli.BoolFlag{Name: "json", Usage: "print every event and live update as JSON lines"},
		},
		Action: resumeAction,
	})
}

func resumeAction(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() != 1 {
		return runner.Usage(c, "resume needs exactly one TASK id")
	}
	if err := verifyConflict(c); err != nil {
		return err
	}
	leanHeadless()
	p := &printer{w: c.Root().Writer, json: c.Bool("json")}
	owner, err := openOwner(ctx, c, p)
	if err != nil {
		return err
	}
	defer owner.Close()
	res := owner.Resume(ctx, c.Args().First(), lagent.TaskOptions{
		Verify: c.String("verify"), NoVerify: c.Bool("no-verify"), Allow: c.StringSlice("allow"), Yolo: c.Bool("yolo"),
	})
	p.result(res)
	return runner.Silent{Code: res.ExitCode()}
}

// openOwner opens the workspace as its owner, reports what recovery
// changed, and serves the control socket.
func openOwner(ctx context.Context, c *cli.Command, p *printer) (*lagent.Owner, error) {
	return openOwnerStarting(ctx, c, p, false)
}

// openOwnerStarting is openOwner for a run whose one task works in place:
// its tool server starts while the store opens.
func openOwnerStarting(ctx context.Context, c *cli.Command, p *printer, prestart bool) (*lagent.Owner, error) {
	overrides, err := ownerOverrides(c)
	if err != nil {
		return nil, err
	}
	p.setRecovering(true)
	owner, err := lagent.OpenOwner(ctx, lagent.OwnerOptions{Dir: c.String("workspace"), ConfigFile: c.String("config"), Overrides: overrides, Consent: c.Bool("consent"), Emit: p.emit, Telemetry: "headless", PrestartBackend: prestart})
	p.setRecovering(false)
	if err != nil {
		return nil, err
	}
	if owner.Recovery.Changed() {
		p.emit(struct {
			V    int    `json:"v"`
			Type string `json:"type"`
			store.RecoveryReport
		}{1, "recovery", owner.Recovery})
		p.recovered(owner.Recovery.Tasks)
	}
	if err := owner.ServeControl(); err != nil {
		owner.Close()
		return nil, err
	}
	return owner, nil
}
