package observe

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// EntryKind tells a timeline step from a reported gap.
type EntryKind string

// Timeline entry kinds (their wire names).
const (
	EntryStep EntryKind = "replay.step"
	EntryGap  EntryKind = "replay.gap"
)

// Entry is one row of a task's timeline: who acted, what they did, the
// policy that applied and the outcome, with the event it comes from.
type Entry struct {
	Kind      EntryKind `json:"type"`
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

// Replay calls each with the task's timeline in commit order. It reads
// the task's whole session so that a sequence gap (a missing event, even
// of another task) is reported as an EntryGap, never hidden; only this
// task's steps are yielded. It executes nothing and re-sends nothing.
func Replay(ctx context.Context, s *store.Store, task core.Task, each func(Entry) error) error {
	return ReplayAfter(ctx, s, task, 0, each)
}

// ReplayAfter is Replay from the first event after seq after: a page of
// a long timeline reads from where the previous one ended, not from the
// session's start; a gap after that point is still reported.
func ReplayAfter(ctx context.Context, s *store.Store, task core.Task, after int64, each func(Entry) error) error {
	last := max(after, 0)
	_, err := s.EachEvent(ctx, store.EventQuery{Session: task.SessionID, AfterSeq: last}, func(ev core.Event) error {
		gap := ev.Seq > last+1
		from := last + 1
		last = ev.Seq
		if gap {
			if err := each(gapEntry(from, ev)); err != nil {
				return err
			}
		}
		if ev.Task != task.ID {
			return nil
		}
		return each(EntryOf(ev))
	})
	return err
}

// gapEntry reports events missing before ev.
func gapEntry(from int64, ev core.Event) Entry {
	return Entry{Kind: EntryGap, Seq: from, TS: ev.TS.UTC(), Actor: "store", Event: "gap",
		Action: fmt.Sprintf("events %d..%d missing", from, ev.Seq-1), Outcome: "gap: history incomplete"}
}

// EntryOf maps an event to its timeline row. Unknown event types are
// shown as runtime actions rather than hidden. Message content is never
// replayed (it may be sensitive): its size is.
func EntryOf(ev core.Event) Entry {
	d := map[string]any{}
	if len(ev.Data) > 0 {
		json.Unmarshal(ev.Data, &d)
	}
	s := Entry{Kind: EntryStep, Seq: ev.Seq, TS: ev.TS.UTC(), Event: ev.Type, Attempt: ev.Attempt, Operation: ev.Operation, Trace: ev.Trace, Actor: "runtime", Action: ev.Type}
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
		if strings.HasPrefix(str("call_id"), "verify_") {
			s.Actor = "runtime" // the runtime runs the verification command itself
		}
	case core.EvOperationDecision:
		s.Actor, s.Action, s.Policy, s.Outcome = "policy", "decide "+str("tool"), joinNonEmpty(str("decision"), str("rule")), str("to")
		if str("rule") == "verification_contract" {
			s.Actor = "runtime"
		}
		if a := attemptedOf(d); a != "" {
			s.Outcome += ": attempted " + a
		}
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
		if ev.Type == core.EvGrantExpired {
			s.Actor = "runtime" // expiry is the runtime's doing, whoever issued the grant
		}
	case core.EvProviderRequest:
		s.Action, s.Outcome = "send request "+str("model"), firstOf(str("to"), str("state"))
	case core.EvProviderResponse:
		s.Actor, s.Action, s.Outcome = "provider", "respond "+str("model"), joinNonEmpty(str("to"), usage(d))
		if f := providerFailureOf(d); f != "" {
			s.Outcome = joinNonEmpty(str("to"), "failed "+f)
		}
	case core.EvMessage:
		s.Actor, s.Action = roleActor(str("role")), fmt.Sprintf("message (%d bytes)", len(str("content")))
		if str("author") == "runtime" {
			s.Actor, s.Action = "runtime", fmt.Sprintf("message %s (%d bytes)", str("purpose"), len(str("content")))
		}
		if n := str("tool_calls"); n != "" && n != "0" {
			s.Outcome = n + " tool call(s)"
		}
	case core.EvVerification:
		s.Actor, s.Action, s.Outcome = "runtime", "verify", joinNonEmpty(firstOf(str("verification"), str("outcome")), str("reason"))
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

// joinNonEmpty joins the non-empty parts with spaces.
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

// attemptedOf shows what a refused call named (store.Attempted's keys).
func attemptedOf(d map[string]any) string {
	raw, _ := json.Marshal(d["attempted"])
	var a store.Attempted
	if json.Unmarshal(raw, &a) != nil {
		return ""
	}
	return a.String()
}

// providerFailureOf shows a failed provider request's recorded error.
func providerFailureOf(d map[string]any) string {
	if d["error"] == nil {
		return ""
	}
	raw, _ := json.Marshal(d["error"])
	var f store.ProviderFailure
	if json.Unmarshal(raw, &f) != nil {
		return ""
	}
	return f.String()
}
