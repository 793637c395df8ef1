package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/tools"
)

// prior is what earlier attempts of a resumed task consumed and left
// unresolved. Budgets carry it forward; nothing in it is replayed.
type prior struct {
	Turns  int
	Tokens int64
	// Usage is the earlier attempts' token account, so a resumed result
	// reports the task's whole usage, as its turns are the task's.
	Usage   TokenAccount
	Unknown []core.Operation
	Request string
	Verify  string
	// Versions is the last version of each file earlier attempts viewed
	// or wrote (path → version); resume compares them with the disk.
	Versions map[string]string
	// Stale lists the files whose content changed since (set on resume).
	Stale []StaleFile
}

// resumeTask starts a new attempt of an interrupted, blocked or failed
// task, linked to the previous attempt, with a new trace. Grants of the
// old attempt are not carried (only those passed now are issued).
func (j *storeJournal) resumeTask(ctx context.Context, taskID string, grants []core.Grant) (Refs, prior, error) {
	var refs Refs
	prior := prior{Versions: map[string]string{}}
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
			if err := accumulate(ctx, tx.Queries, at.ID, &prior); err != nil {
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

func accumulate(ctx context.Context, tx store.Queries, attempt string, p *prior) error {
	reqs, err := tx.ListProviderRequests(ctx, attempt)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if r.Purpose == purposeTurn {
			p.Turns++
		}
		if r.InputTokens != nil {
			p.Tokens += *r.InputTokens
		}
		if r.OutputTokens != nil {
			p.Tokens += *r.OutputTokens
		}
		p.Usage.addStored(r)
	}
	ops, err := tx.ListOperations(ctx, attempt)
	if err != nil {
		return err
	}
	for _, o := range ops {
		if o.State == core.OpUnknown {
			p.Unknown = append(p.Unknown, o)
		}
		noteFileVersion(p.Versions, o)
	}
	return nil
}

// resumeNote tells the model what the previous attempt left unresolved.
// Unknown operations are described, never replayed: running one again
// goes through policy and approval like any new call.
func resumeNote(p prior) string {
	var b strings.Builder
	b.WriteString("This task is being resumed after an interruption. The workspace is as the previous attempt left it; check it before relying on earlier results.")
	if len(p.Unknown) > 0 {
		b.WriteString(" These operations started but their outcome is unknown; they were not replayed:")
		for _, o := range p.Unknown {
			fmt.Fprintf(&b, "\n- %s %s", o.Tool, string(o.Args))
		}
	}
	if len(p.Stale) > 0 {
		b.WriteString("\nThese files changed since the previous attempt last viewed or wrote them; their earlier versions are stale. View each again before editing it:")
		for _, f := range p.Stale {
			fmt.Fprintf(&b, "\n- %s", f.Path)
		}
	}
	return b.String()
}

// workspaceState is the git identity of the working tree.
type workspaceState struct {
	Branch string `json:"branch"`
	Head   string `json:"head"`
}

// currentWorkspaceState asks the backend for the branch and HEAD of its
// tree.
func currentWorkspaceState(ctx context.Context, q querier) (workspaceState, error) {
	var st tools.GitState
	if err := q.Query(ctx, tools.QueryGitState, nil, &st); err != nil {
		return workspaceState{}, err
	}
	return workspaceState{Branch: st.Branch, Head: st.Head}, nil
}

// checkWorkspaceState compares the state a task last started at with the
// current one: a different branch or revision means the earlier work may
// not apply, so resume refuses instead of guessing.
func checkWorkspaceState(ctx context.Context, s *store.Store, task string, q querier, backend *BackendIdentity) error {
	if err := checkBackendIdentity(ctx, s, task, backend); err != nil {
		return err
	}
	last, err := lastWorkspaceState(ctx, s, task)
	if err != nil || last == nil {
		return err
	}
	now, _ := currentWorkspaceState(ctx, q)
	if now != *last {
		return core.Errorf(core.CodeInterrupted, "the workspace moved since task %s ran: it was on %s at %.12s, it is now on %s at %.12s", task, orDetached(last.Branch), last.Head, orDetached(now.Branch), now.Head).
			WithHint("check out %s at %.12s again to resume, or start a new task", orDetached(last.Branch), last.Head)
	}
	return nil
}

// lastWorkspaceState is the branch and revision the task's latest
// attempt started at; nil when none was recorded.
func lastWorkspaceState(ctx context.Context, s *store.Store, task string) (*workspaceState, error) {
	var last *workspaceState
	_, err := s.EachEvent(ctx, store.EventQuery{Task: task, Type: core.EvWorkspaceState}, func(ev core.Event) error {
		var ws workspaceState
		if json.Unmarshal(ev.Data, &ws) == nil {
			last = &ws
		}
		return nil
	})
	return last, err
}

func orDetached(b string) string {
	if b == "" {
		return "a detached HEAD"
	}
	return b
}

// waivedBefore reports whether an earlier attempt of task recorded the
// user's verification waiver.
func waivedBefore(ctx context.Context, j *storeJournal, task string) bool {
	waived := false
	j.S.EachEvent(ctx, store.EventQuery{Task: task, Type: core.EvVerificationWaived}, func(core.Event) error {
		waived = true
		return nil
	})
	return waived
}
