package observe

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// Step is one row of a replay timeline ("replay.step").
type Step struct {
	V         int       `json:"v"`
	Type      string    `json:"type"`
	Seq       int64     `json:"seq"`
	TS        time.Time `json:"ts"`
	Actor     string    `json:"actor"`
	Action    string    `json:"action"`
	Policy    string    `json:"policy,omitempty"`
	Outcome   string    `json:"outcome,omitempty"`
	Event     string    `json:"event"`
	Attempt   string    `json:"attempt,omitempty"`
	Operation string    `json:"operation,omitempty"`
	Trace     string    `json:"trace,omitempty"`
}

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "show a task's read-only timeline: time, actor, action, policy, outcome",
		ArgsUsage: "[TASK]",
		Description: `replay reconstructs what happened in a task from its durable events, in
commit order: who acted (user, model, policy, runtime, tool, provider,
verifier, laya), what they did, the policy that applied and the outcome.
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
			// The session's events are read in full so that a seq gap (a
			// missing event) is visible; only this task's steps are shown.
			var last int64
			_, err = s.EachEvent(ctx, store.EventQuery{Session: task.SessionID}, func(ev core.Event) error {
				gap := ev.Seq > last+1
				from := last + 1
				last = ev.Seq
				if gap {
					if err := printStep(w, c.Bool("json"), gapStep(from, ev)); err != nil {
						return err
					}
				}
				if ev.Task != task.ID {
					return nil
				}
				return printStep(w, c.Bool("json"), stepOf(ev))
			})
			return err
		},
	}
}

// gapStep reports events missing before ev: replay never hides a gap.
func gapStep(from int64, ev core.Event) Step {
	return Step{V: 1, Type: "replay.gap", Seq: from, TS: ev.TS.UTC(), Actor: "store", Event: "gap",
		Action: fmt.Sprintf("events %d..%d missing", from, ev.Seq-1), Outcome: "gap: history incomplete"}
}

func printStep(w io.Writer, asJSON bool, st Step) error {
	if asJSON {
		return writeJSON(w, st)
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

// stepOf maps an event to its timeline row. Unknown event types are shown
// as runtime actions rather than hidden.
func stepOf(ev core.Event) Step {
	d := map[string]any{}
	if len(ev.Data) > 0 {
		json.Unmarshal(ev.Data, &d)
	}
	s := Step{V: 1, Type: "replay.step", Seq: ev.Seq, TS: ev.TS.UTC(), Event: ev.Type, Attempt: ev.Attempt, Operation: ev.Operation, Trace: ev.Trace, Actor: "runtime", Action: ev.Type}
	str := func(k string) string {
		if v, ok := d[k]; ok && v != nil {
			return fmt.Sprint(v)
		}
		return ""
	}
	switch ev.Type {
	case core.EvTaskCreated:
		s.Actor, s.Action, s.Outcome = "user", "create task", str("state")
	case core.EvTaskState:
		s.Action, s.Outcome = "task "+str("from")+" → "+str("to"), str("reason")
	case core.EvAttemptStarted:
		s.Action = "start attempt " + str("number")
		if p := str("previous"); p != "" {
			s.Action += " (resumes " + p + ")"
		}
	case core.EvAttemptEnded:
		s.Action, s.Outcome = "end attempt", joinNonEmpty(str("state"), str("reason"))
	case core.EvOperationRequested:
		s.Actor, s.Action, s.Outcome = "model", "request "+str("tool"), str("state")
	case core.EvOperationDecision:
		s.Actor, s.Action, s.Policy, s.Outcome = "policy", "decide "+str("tool"), joinNonEmpty(str("decision"), str("rule")), str("to")
	case core.EvOperationIntent:
		s.Action, s.Outcome = "commit intent "+str("tool"), str("to")
		if g := str("grant"); g != "" {
			s.Policy = "grant " + g
		}
	case core.EvOperationDispatched:
		s.Actor, s.Action, s.Outcome = "tool", "dispatch "+str("tool"), str("to")
	case core.EvOperationResult, core.EvOperationUnknown:
		s.Actor, s.Action, s.Outcome = "tool", "result "+str("tool"), joinNonEmpty(str("to"), str("reason"))
	case core.EvPermissionRequested:
		s.Actor, s.Action, s.Outcome = "runtime", "ask permission", "waiting"
	case core.EvPermissionResolved:
		s.Actor, s.Action, s.Outcome = "user", "resolve permission", str("verdict")
	case core.EvGrantIssued, core.EvGrantConsumed, core.EvGrantExpired, core.EvGrantRevoked:
		s.Actor, s.Action, s.Policy, s.Outcome = grantActor(str("source")), ev.Type, joinNonEmpty(str("scope"), str("spec")), str("state")
	case core.EvProviderRequest:
		s.Action, s.Outcome = "send request "+str("model"), firstOf(str("to"), str("state"))
	case core.EvProviderResponse:
		s.Actor, s.Action, s.Outcome = "provider", "respond "+str("model"), joinNonEmpty(str("to"), usage(d))
	case core.EvMessage:
		// The content itself is not replayed (it may be sensitive): its size is.
		s.Actor, s.Action = roleActor(str("role")), fmt.Sprintf("message (%d bytes)", len(str("content")))
		if n := str("tool_calls"); n != "" && n != "0" {
			s.Outcome = n + " tool call(s)"
		}
	case core.EvVerification:
		s.Actor, s.Action, s.Outcome = "verifier", "verify", joinNonEmpty(firstOf(str("verification"), str("outcome")), str("reason"))
	case core.EvCompaction:
		s.Action, s.Outcome = "compact context", str("before_tokens")+" → "+str("after_tokens")+" tokens"
	case core.EvBudget:
		s.Action, s.Outcome = "budget "+str("budget"), "limit "+str("limit")
	case core.EvObservation:
		s.Actor, s.Action, s.Outcome = "laya", "observe ("+str("kind")+")", "observation only"
	case core.EvYolo:
		s.Actor, s.Action = "user", "yolo"
	case core.EvIntervention:
		s.Actor, s.Action = "user", "intervene"
	case core.EvRecovery:
		s.Action, s.Outcome = "recover", str("outcome")
	}
	return s
}

func usage(d map[string]any) string {
	in, out := d["input_tokens"], d["output_tokens"]
	f := func(v any) string {
		if v == nil {
			return "unknown"
		}
		return fmt.Sprint(v)
	}
	return "tokens in " + f(in) + " out " + f(out)
}

func grantActor(source string) string {
	if source == "config" {
		return "policy"
	}
	return "user"
}

func roleActor(role string) string {
	switch role {
	case "assistant":
		return "model"
	case "user":
		return "user"
	case "tool":
		return "tool"
	}
	return "runtime"
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" && p != "<nil>" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
