package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/worktree"
)

// The port's worktree commands: what fluzo-agent review, accept, reject
// and repair do, for a client of a running serve (which holds the owner
// lock the commands would take).

type worktreeArgs struct {
	core.Command
	Task string `json:"task"`
	// DiffID (accept) refuses a change other than the reviewed one.
	DiffID string `json:"diff_id,omitempty"`
	// Yes (reject) confirms the deletion.
	Yes bool `json:"yes,omitempty"`
}

func decodeWorktreeArgs(raw []byte) (worktreeArgs, error) {
	var a worktreeArgs
	if err := core.DecodeStrict(raw, &a); err != nil {
		return a, err
	}
	if a.Task == "" {
		return a, core.Errorf(core.CodeInvalidRequest, "the command needs a task").WithHint(`send "task":"tsk_..."`).With("field", "task")
	}
	return a, nil
}

// review answers a worktree task's change; it only reads.
func (p *Port) review(ctx context.Context, raw []byte) (any, error) {
	a, err := decodeWorktreeArgs(raw)
	if err != nil {
		return nil, err
	}
	rec, err := worktree.Lookup(ctx, p.Owner.Store.Queries, a.Task)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"worktree": rec, "files": []worktree.File{}}
	if rec.State == worktree.StateRejected || rec.State == worktree.StateRemoved {
		return out, nil
	}
	ch, err := worktree.Diff(ctx, p.Owner.Root, rec.Binding)
	if err != nil {
		return nil, err
	}
	out["files"], out["diff_id"], out["patch"] = ch.Files, ch.ID, string(ch.Patch)
	return out, nil
}

// idle runs fn while no task runs, holding the port so none starts
// meanwhile: accept and reject must not race a task editing the worktree.
func (p *Port) idle(fn func() (any, error)) (any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		return nil, core.Errorf(core.CodeWorkspaceBusy, "a task is running in this workspace").
			WithHint("wait for its result, or cancel it, then send the command again")
	}
	return fn()
}

// accept applies a worktree task's change to the main tree, uncommitted.
func (p *Port) accept(ctx context.Context, raw []byte) (any, error) {
	a, err := decodeWorktreeArgs(raw)
	if err != nil {
		return nil, err
	}
	return p.idle(func() (any, error) {
		rec, ch, err := worktree.OwnedWriter(p.Owner.Root, p.Owner.Store, func(ev core.Event) { p.Owner.send(ev) }).Accept(ctx, a.Task, a.DiffID)
		if err != nil {
			return nil, err
		}
		return map[string]any{"worktree": rec, "files": ch.Files, "diff_id": ch.ID}, nil
	})
}

// reject removes a worktree task's worktree and branch; yes is required.
func (p *Port) reject(ctx context.Context, raw []byte) (any, error) {
	a, err := decodeWorktreeArgs(raw)
	if err != nil {
		return nil, err
	}
	if !a.Yes {
		return nil, core.Errorf(core.CodeConfirmationRequired, "nothing was removed: rejecting deletes the worktree of %s and its branch", a.Task).
			WithHint(`send "yes":true to confirm`)
	}
	return p.idle(func() (any, error) {
		rec, err := worktree.OwnedWriter(p.Owner.Root, p.Owner.Store, func(ev core.Event) { p.Owner.send(ev) }).Reject(ctx, a.Task)
		if err != nil {
			return nil, err
		}
		return map[string]any{"worktree": rec}, nil
	})
}

// repair starts a follow-up task in a worktree task's worktree; its events
// and result follow like start_task's.
func (p *Port) repair(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task     string   `json:"task"`
		Feedback string   `json:"feedback"`
		Verify   string   `json:"verify,omitempty"`
		NoVerify bool     `json:"no_verify,omitempty"`
		Allow    []string `json:"allow,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Task == "" || a.Feedback == "" {
		return nil, core.Errorf(core.CodeInvalidRequest, "repair needs a task and feedback").WithHint(`send "task":"tsk_...","feedback":"what to change"`)
	}
	// A worktree that cannot be repaired is answered in the ack.
	rec, err := worktree.Lookup(ctx, p.Owner.Store.Queries, a.Task)
	if err != nil {
		return nil, err
	}
	if err := worktree.Live(rec); err != nil {
		return nil, err
	}
	return p.launch(func(opts TaskOptions) Result {
		opts.Allow, opts.Verify, opts.NoVerify = a.Allow, a.Verify, a.NoVerify
		return p.Owner.Repair(context.WithoutCancel(ctx), a.Task, a.Feedback, opts)
	})
}
