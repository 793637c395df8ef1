package agent

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/policy"
	"github.com/josecorral/fluzo/lib/store"
)

// ResumePreview is what resuming a task would find and drop, computed
// from the store and the workspace without writing anything: the same
// checks resume makes (workspace identity and revision, file versions),
// so a front end can show them and ask before the person resumes.
type ResumePreview struct {
	Task      string `json:"task"`
	State     string `json:"state"`
	Reason    string `json:"reason,omitempty"`
	Resumable bool   `json:"resumable"`
	// Refusal says why resume would refuse now ("" when it would start).
	Refusal   string          `json:"refusal,omitempty"`
	Workspace WorkspaceChange `json:"workspace"`
	Files     Revalidation    `json:"files"`
	// Unknown are operations whose outcome is unknown: never replayed.
	Unknown []PreviewOperation `json:"unknown_operations"`
	// Grants are the task's grants still issued: resume does not carry
	// them to the new attempt.
	Grants []core.Grant `json:"dropped_grants"`
	// YoloBefore: YOLO was switched on during an earlier attempt; it is
	// not restored. YoloNow: YOLO is on in this session now, so the new
	// attempt would run under it.
	YoloBefore bool  `json:"yolo_before"`
	YoloNow    bool  `json:"yolo_now"`
	Turns      int   `json:"carried_turns"`
	Tokens     int64 `json:"carried_tokens"`
}

// WorkspaceChange compares the revision the task last ran at with now.
type WorkspaceChange struct {
	Recorded *workspaceState `json:"recorded"` // nil: none recorded
	Current  workspaceState  `json:"current"`
	Moved    bool            `json:"moved"`
	// Identity is false when the store's workspace is not this directory.
	Identity bool `json:"identity"`
}

// PreviewOperation names one operation of an earlier attempt.
type PreviewOperation struct {
	ID   string `json:"id"`
	Tool string `json:"tool"`
}

// PreviewResume reads what resuming task would find. It starts nothing,
// contacts no provider and changes no authorization.
func (w *Owner) PreviewResume(ctx context.Context, task string, yoloNow bool) (ResumePreview, error) {
	t, err := w.Store.GetTask(ctx, task)
	if err != nil {
		return ResumePreview{}, err
	}
	pv := ResumePreview{Task: t.ID, State: string(t.State), Reason: t.Reason, YoloNow: yoloNow,
		Unknown: []PreviewOperation{}, Grants: []core.Grant{}}
	pv.Resumable = t.State == core.TaskBlocked || t.State == core.TaskFailed
	if !pv.Resumable {
		pv.Refusal = "task " + t.ID + " is " + string(t.State) + "; only blocked, interrupted or failed tasks can be resumed"
	}
	if err := w.previewWorkspace(ctx, &pv); err != nil {
		return pv, err
	}
	pr := prior{Versions: map[string]string{}}
	attempts, err := w.Store.ListAttempts(ctx, task)
	if err != nil {
		return pv, err
	}
	for _, at := range attempts {
		if err := accumulate(ctx, w.Store.Queries, at.ID, &pr); err != nil {
			return pv, err
		}
	}
	pv.Turns, pv.Tokens = pr.Turns, pr.Tokens
	for _, o := range pr.Unknown {
		pv.Unknown = append(pv.Unknown, PreviewOperation{ID: o.ID, Tool: o.Tool})
	}
	q, done, err := w.reads(ctx, task)
	if err != nil {
		return pv, err
	}
	pv.Files = revalidate(ctx, q, pr.Versions)
	done()
	return pv, w.previewAuthorization(ctx, &pv)
}

func (w *Owner) previewWorkspace(ctx context.Context, pv *ResumePreview) error {
	pv.Workspace.Identity = w.Store.IdentityMatches()
	last, err := lastWorkspaceState(ctx, w.Store, pv.Task)
	if err != nil {
		return err
	}
	pv.Workspace.Recorded = last
	if q, done, err := w.reads(ctx, pv.Task); err == nil {
		pv.Workspace.Current, _ = currentWorkspaceState(ctx, q)
		done()
	}
	pv.Workspace.Moved = last != nil && *last != pv.Workspace.Current
	switch {
	case pv.Refusal != "":
	case !pv.Workspace.Identity:
		pv.Refusal = "the workspace is not the one the task ran in (its device or inode changed)"
	case pv.Workspace.Moved:
		pv.Refusal = "the workspace moved since the task ran: check out " + orDetached(last.Branch) + " at " + short(last.Head) + " again"
	}
	return nil
}

// previewAuthorization lists the grants that will not carry over and
// whether YOLO was on in an earlier attempt.
func (w *Owner) previewAuthorization(ctx context.Context, pv *ResumePreview) error {
	grants, err := w.Store.ListGrants(ctx, pv.Task)
	if err != nil {
		return err
	}
	for _, g := range grants {
		if g.State == core.GrantIssued {
			pv.Grants = append(pv.Grants, g)
		}
	}
	// YOLO of an earlier attempt shows as a yolo event under the task
	// (switched while it ran) or as a decision YOLO allowed (it was on
	// when the attempt started).
	for _, typ := range []string{core.EvYolo, core.EvOperationDecision} {
		_, err = w.Store.EachEvent(ctx, store.EventQuery{Task: pv.Task, Type: typ}, func(ev core.Event) error {
			var d struct {
				On     bool   `json:"on"`
				Reason string `json:"reason"`
			}
			if json.Unmarshal(ev.Data, &d) == nil && (d.On || d.Reason == string(policy.ReasonYolo)) {
				pv.YoloBefore = true
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
