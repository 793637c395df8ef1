package agent

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/urfave/cli/v3"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "own the workspace and speak the JSONL application port on stdin/stdout",
		Description: `Reads one JSON command per line on stdin and writes acks, typed errors,
events, live updates and results as JSON lines on stdout. Commands:

  {"v":1,"id":"1","cmd":"start_task","request":"...","verify":"cargo test","allow":["exec:cargo test"]}
                                          (or "no_verify":true to waive verification)
  {"v":1,"id":"2","cmd":"approve","operation":"op_...","scope":"once"}   (or "task")
  {"v":1,"id":"3","cmd":"deny","operation":"op_..."}
  {"v":1,"id":"4","cmd":"queue_intervention","text":"..."}
  {"v":1,"id":"5","cmd":"edit_intervention","intervention":"msg_...","text":"..."}
  {"v":1,"id":"6","cmd":"set_yolo","on":true}
  {"v":1,"id":"7","cmd":"cancel","task":"tsk_..."}
  {"v":1,"id":"8","cmd":"force_stop","task":"tsk_...","yes":true}
  {"v":1,"id":"9","cmd":"resume","task":"tsk_...","allow":["exec:cargo test"]}
  {"v":1,"id":"10","cmd":"revoke_grant","grant":"grt_..."}
  {"v":1,"id":"11","cmd":"subscribe"}     (snapshot, event cursor and per-session seqs)
  {"v":1,"id":"12","cmd":"events","session":"ses_...","after_seq":41,"limit":100}
  {"v":1,"id":"13","cmd":"diff","task":"tsk_..."}
  {"v":1,"id":"14","cmd":"status"}  /  "tasks"  /  "task" (with "task")  /  "settings"  /  "capacity"
  {"v":1,"id":"15","cmd":"new_session"}   /  "session" (with "session")   (start_task takes "session")
  {"v":1,"id":"16","cmd":"withdraw_intervention","intervention":"msg_..."}
  {"v":1,"id":"17","cmd":"sessions","match":"flag","offset":0,"limit":50}  /  "resume_preview" (with "task")
  {"v":1,"id":"18","cmd":"config_change","changes":[{"key":"harness.max_turns","value":"40"}],"save":true}

An approval answers the operation named by the latest permission.requested
event; an answer for any other operation is rejected as stale. Interventions
are delivered in order at the next safe boundary and can be edited or
withdrawn until then. YOLO set here lasts for this session only. A client that sees a seq gap
re-pages the missing events with "events". On end of input, SIGTERM, SIGINT or
SIGHUP the running task is cancelled (even while it waits for an approval),
its outcome recorded within 15 seconds, and serve exits releasing the
workspace. A command line over 4 MiB is answered with an invalid_request
error naming the limit (reason line_too_long) and skipped. PORT PROTOCOL in fluzo-agent(1) has every field,
answer and error.`,
		Flags: []cli.Flag{
			workspaceFlag(),
			configFlag(), setFlag(), consentFlag(), backendFlag(),
		},
		Action: serveAction,
	}
}

func serveAction(ctx context.Context, c *cli.Command) error {
	port := lagent.NewPort(c.Root().Writer)
	overrides, err := ownerOverrides(c)
	if err != nil {
		return err
	}
	owner, err := lagent.OpenOwner(ctx, lagent.OwnerOptions{Dir: c.String("workspace"), ConfigFile: c.String("config"), Overrides: overrides, Consent: c.Bool("consent"), Emit: port.Emit, Telemetry: "port"})
	if err != nil {
		return err
	}
	defer owner.Close()
	if err := owner.ServeControl(); err != nil {
		return err
	}
	port.Owner = owner
	// A signal ends serve like end of input: the running task is
	// cancelled, its outcome recorded, and the workspace released.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return port.Serve(ctx, os.Stdin)
}
