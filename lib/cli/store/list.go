package storecli

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func sessionsCommand() *cli.Command {
	return &cli.Command{
		Name:   "sessions",
		Usage:  "list the stored sessions of this repository",
		Flags:  []cli.Flag{jsonFlag(), idsFlag()},
		Action: runSessions,
	}
}

func runSessions(ctx context.Context, c *cli.Command) error {
	s, err := openRead(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	sums, err := s.ListSessionSummaries(ctx)
	if err != nil {
		return err
	}
	if c.Bool("ids") {
		var ids []string
		for _, s := range sums {
			ids = append(ids, s.ID)
		}
		return printIDs(c, ids)
	}
	return printSessions(c, sums, false)
}

// idsFlag selects the plainest listing: what shell completion and scripts
// read.
func idsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "ids", Usage: "print only the ids, one a line (what shell completion reads)"}
}

func printIDs(c *cli.Command, ids []string) error {
	w := bufio.NewWriter(c.Root().Writer)
	for _, id := range ids {
		fmt.Fprintln(w, id)
	}
	return w.Flush()
}

func printSessions(c *cli.Command, sums []store.SessionSummary, sizes bool) error {
	w := c.Root().Writer
	if c.Bool("json") {
		out := newJSONL(w)
		for _, s := range sums {
			out.put(record("session", s))
		}
		return out.flush()
	}
	header := []string{"SESSION", "CREATED", "TASKS", "EVENTS", "TITLE"}
	if sizes {
		header = []string{"SESSION", "CREATED", "TASKS", "EVENTS", "ARTIFACTS", "TITLE"}
	}
	t := newTable(w, header...)
	for _, s := range sums {
		title := short(s.Title, 48)
		if s.Synthetic {
			title += " [synthetic]"
		}
		cells := []string{s.ID, s.CreatedAt.Format(time.DateTime), strconv.FormatInt(s.Tasks, 10), strconv.FormatInt(s.Events, 10)}
		if sizes {
			cells = append(cells, fmt.Sprintf("%d (%s)", s.Artifacts, store.FormatBytes(s.ArtifactBytes)))
		}
		t.row(append(cells, title)...)
	}
	return t.flush()
}

func tasksCommand() *cli.Command {
	return &cli.Command{
		Name:  "tasks",
		Usage: "list stored tasks, optionally of one session",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "only tasks of session `ID`"},
			jsonFlag(), idsFlag(),
		},
		Action: runTasks,
	}
}

func runTasks(ctx context.Context, c *cli.Command) error {
	s, err := openRead(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	if id := c.String("session"); id != "" {
		if _, err := s.GetSession(ctx, id); err != nil {
			return err
		}
	}
	tasks, err := s.ListTasks(ctx, c.String("session"))
	if err != nil {
		return err
	}
	if c.Bool("ids") {
		var ids []string
		for _, t := range tasks {
			ids = append(ids, t.ID)
		}
		return printIDs(c, ids)
	}
	w := c.Root().Writer
	own := probeOwner(s)
	if c.Bool("json") {
		out := newJSONL(w)
		for _, t := range tasks {
			out.put(record("task", own.taskRecord(t)))
		}
		return out.flush()
	}
	t := newTable(w, "TASK", "SESSION", "STATE", "REASON", "UPDATED", "REQUEST")
	var interrupted []string
	for _, tk := range tasks {
		t.row(tk.ID, tk.SessionID, own.taskState(tk), orDash(tk.Reason), tk.UpdatedAt.Format(time.DateTime), short(tk.Request, 60))
		if own.interrupted(tk) {
			interrupted = append(interrupted, tk.ID)
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	for _, id := range interrupted {
		fmt.Fprintf(w, "task %s was interrupted; continue it with '%s'\n", id, core.ResumeCommand(id))
	}
	return nil
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one task with its attempts, operations and provider requests",
		ArgsUsage: "TASK",
		Flags:     []cli.Flag{jsonFlag()},
		Action:    runShow,
	}
}

// taskView is everything show prints about a task.
type taskView struct {
	task     core.Task
	attempts []core.Attempt
	ops      map[string][]core.Operation
	reqs     map[string][]core.ProviderRequest
	detail   store.FailureDetail
	// owner says whether an owner holds the workspace now: a "running"
	// task without one was interrupted, and with an unknown one its state
	// is unknown (never called interrupted on a guess).
	owner owner
}

func runShow(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() != 1 {
		return runner.Usage(c, "show needs exactly one task ID")
	}
	s, err := openRead(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	v := taskView{ops: map[string][]core.Operation{}, reqs: map[string][]core.ProviderRequest{}}
	if v.task, err = s.GetTask(ctx, c.Args().First()); err != nil {
		return err
	}
	if v.attempts, err = s.ListAttempts(ctx, v.task.ID); err != nil {
		return err
	}
	for _, a := range v.attempts {
		if v.ops[a.ID], err = s.ListOperations(ctx, a.ID); err != nil {
			return err
		}
		if v.reqs[a.ID], err = s.ListProviderRequests(ctx, a.ID); err != nil {
			return err
		}
	}
	v.owner = probeOwner(s)
	if c.Bool("json") {
		return showJSON(c, v)
	}
	if v.detail, err = s.TaskFailureDetail(ctx, v.task.ID); err != nil {
		return err
	}
	return showText(c, v)
}

func showJSON(c *cli.Command, v taskView) error {
	out := newJSONL(c.Root().Writer)
	out.put(record("task", v.owner.taskRecord(v.task)))
	for _, a := range v.attempts {
		out.put(record("attempt", v.owner.attemptRecord(a)))
		for _, r := range v.reqs[a.ID] {
			out.put(record("provider_request", r))
		}
		for _, o := range v.ops[a.ID] {
			out.put(record("operation", v.owner.operationRecord(o)))
		}
	}
	return out.flush()
}

func showText(c *cli.Command, v taskView) error {
	w := c.Root().Writer
	t := v.task
	fmt.Fprintf(w, "task     %s\nsession  %s\nstate    %s\n", t.ID, t.SessionID, v.owner.taskState(t))
	if t.Reason != "" {
		fmt.Fprintf(w, "reason   %s\n", termsafe.Line(t.Reason))
	}
	if v.owner.interrupted(t) {
		fmt.Fprintf(w, "resume   %s\n", core.ResumeCommand(t.ID))
	}
	fmt.Fprintf(w, "created  %s\nupdated  %s\nrequest  %s\n", t.CreatedAt.Format(time.RFC3339), t.UpdatedAt.Format(time.RFC3339), termsafe.Line(t.Request))
	if t.Verify != "" {
		fmt.Fprintf(w, "verify   %s\n", termsafe.Line(t.Verify))
	}
	for _, a := range v.attempts {
		fmt.Fprintf(w, "\nattempt %d  %s  %s", a.Number, a.ID, v.owner.attemptState(a))
		if a.Reason != "" {
			fmt.Fprintf(w, " (%s)", termsafe.Line(a.Reason))
		}
		fmt.Fprintf(w, "  trace %s\n", orDash(a.TraceID))
		for _, r := range v.reqs[a.ID] {
			fmt.Fprintf(w, "  request   %s  %s  %s  tokens in %s out %s\n", r.ID, termsafe.Line(r.Model), r.State, tokens(r.InputTokens), tokens(r.OutputTokens))
			if f, ok := v.detail.Requests[r.ID]; ok {
				printDetail(w, "failed:", f.String())
			}
		}
		for _, o := range v.ops[a.ID] {
			fmt.Fprintf(w, "  operation %s  %-12s %s\n", o.ID, termsafe.Line(o.Tool), v.owner.operationState(o))
			printDetail(w, "attempted:", v.detail.Refused[o.ID].String())
		}
	}
	return nil
}

// tokens prints a count, or "unknown" — never 0 for a missing value.
func tokens(n *int64) string {
	if n == nil {
		return "unknown"
	}
	return strconv.FormatInt(*n, 10)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return termsafe.Line(s)
}
