package observe

import (
	"context"
	"fmt"
	"io"

	"github.com/josecorral/fluzo/lib/observe"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// stepRecord is one "replay.step" or "replay.gap" record: a timeline
// entry in its wire envelope.
type stepRecord struct {
	V int `json:"v"`
	observe.Entry
}

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "show a task's read-only timeline: time, actor, action, policy, outcome",
		ArgsUsage: "[TASK]",
		Description: `replay reconstructs what happened in a task from its durable events, in
commit order: who acted (user, model, policy, runtime, tool, provider,
laya; the runtime's own actions such as verification, its feedback to the
model and grant expiry are the runtime's), what they did, the policy that
applied and the outcome.
It opens the store read-only and never executes a tool, re-sends a model
request or changes anything; it does not promise that re-running the task
would do the same. Laya rows are observations, never decisions. Stored text
is shown with control characters escaped.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one replay.step JSON record per line"}},
		Action: func(ctx context.Context, c *cli.Command) error {
			s, err := openHistory(ctx, c)
			if err != nil {
				return err
			}
			defer s.Close()
			id, err := taskArg(ctx, c, s)
			if err != nil {
				return err
			}
			task, err := s.GetTask(ctx, id)
			if err != nil {
				return err
			}
			w := c.Root().Writer
			if !c.Bool("json") {
				fmt.Fprintf(w, "task %s  session %s  state %s%s\n", task.ID, task.SessionID, task.State, reasonSuffix(task.Reason))
				fmt.Fprintf(w, "request: %s\n", clean(task.Request, 200))
				fmt.Fprintf(w, "%-20s  %-10s  %-52s  %-28s  %s\n", "TIME", "ACTOR", "ACTION", "POLICY", "OUTCOME")
			}
			return observe.Replay(ctx, s, task, func(st observe.Entry) error {
				return printStep(w, c.Bool("json"), st)
			})
		},
	}
}

func printStep(w io.Writer, asJSON bool, st observe.Entry) error {
	if asJSON {
		return writeJSON(w, stepRecord{V: 1, Entry: st})
	}
	_, err := fmt.Fprintf(w, "%-20s  %-10s  %-52s  %-28s  %s\n", st.TS.Format("2006-01-02T15:04:05Z"),
		st.Actor, clean(st.Action, 52), clean(dash(st.Policy), 28), clean(dash(st.Outcome), 60))
	return err
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + termsafe.Line(r) + ")"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
