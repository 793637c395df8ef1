package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Prior is what earlier attempts of a resumed task consumed and left
// unresolved. Budgets carry it forward; nothing in it is replayed.
type Prior struct {
	Turns   int
	Tokens  int64
	Unknown []core.Operation
	Request string
	Verify  string
}

// ResumeTask starts a new attempt of an interrupted, blocked or failed
// task, linked to the previous attempt, with a new trace. Grants of the
// old attempt are not carried (only those passed now are issued).
func (j *StoreJournal) ResumeTask(ctx context.Context, taskID string, grants []core.Grant) (Refs, Prior, error) {
	var refs Refs
	var prior Prior
	err := j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		t, err := tx.GetTask(ctx, taskID)
		if err != nil {
			return err
		}
		if t.State != core.TaskBlocked && t.State != core.TaskFailed {
			return core.Errorf(core.CodeInvalidRequest, "task %s is %s; only blocked, interrupted or failed tasks can be resumed", taskID, t.State).
				WithHint("start a new task with 'fluzo-agent run'")
		}
		prior.Request, prior.Verify = t.Request, t.Verify
		attempts, err := tx.ListAttempts(ctx, taskID)
		if err != nil {
			return err
		}
		if len(attempts) == 0 {
			return core.Errorf(core.CodeInvalidRequest, "task %s has no attempt to resume", taskID)
		}
		for _, at := range attempts {
			if err := accumulate(ctx, tx, at.ID, &prior); err != nil {
				return err
			}
		}
		path := []core.TaskState{core.TaskRunning}
		if t.State == core.TaskFailed {
			path = []core.TaskState{core.TaskReady, core.TaskRunning}
		}
		for _, to := range path {
			_, ev, err := tx.SetTaskState(taskID, to, "resumed")
			if err := add(ev, err); err != nil {
				return err
			}
		}
		refs = Refs{Session: t.SessionID, Task: taskID, Trace: newTraceID()}
		tx.Meta.Trace = refs.Trace
		for _, g := range grants {
			g.TaskID = taskID
			if err := add(tx.IssueGrant(&g)); err != nil {
				return err
			}
		}
		att := core.Attempt{TaskID: taskID, TraceID: refs.Trace, PreviousID: attempts[len(attempts)-1].ID}
		if err := add(tx.StartAttempt(&att)); err != nil {
			return err
		}
		refs.Attempt = att.ID
		return nil
	})
	return refs, prior, err
}

func accumulate(ctx context.Context, tx *store.Tx, attempt string, p *Prior) error {
	reqs, err := tx.ListProviderRequests(ctx, attempt)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if r.Purpose == PurposeTurn {
			p.Turns++
		}
		if r.InputTokens != nil {
			p.Tokens += *r.InputTokens
		}
		if r.OutputTokens != nil {
			p.Tokens += *r.OutputTokens
		}
	}
	ops, err := tx.ListOperations(ctx, attempt)
	if err != nil {
		return err
	}
	for _, o := range ops {
		if o.State == core.OpUnknown {
			p.Unknown = append(p.Unknown, o)
		}
	}
	return nil
}

// resumeNote tells the model what the previous attempt left unresolved.
// Unknown operations are described, never replayed: running one again
// goes through policy and approval like any new call.
func resumeNote(p Prior) string {
	var b strings.Builder
	b.WriteString("This task is being resumed after an interruption. The workspace is as the previous attempt left it; check it before relying on earlier results.")
	if len(p.Unknown) > 0 {
		b.WriteString(" These operations started but their outcome is unknown; they were not replayed:")
		for _, o := range p.Unknown {
			fmt.Fprintf(&b, "\n- %s %s", o.Tool, string(o.Args))
		}
	}
	return b.String()
}
