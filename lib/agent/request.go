package agent

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/josecorral/fluzo/lib/core"
)

// request reserves budget, records the provider request, sends it and
// reconciles usage. Every model request (turns, compaction, finalization)
// goes through here.
func (a *run) request(ctx context.Context, purpose string, msgs []message, tools json.RawMessage) (modelResponse, error) {
	maxOut := orDefault(a.Budgets.MaxOutputTokens, defaultMaxOutputTokens)
	// A request reserved with the last tool outcome is used, or settled
	// as not sent when this one has another purpose.
	held := a.takeReserved(ctx, purpose)
	// Reserve the estimated input plus the output reserve before sending;
	// reconcile with reported usage after.
	reserved := int64(estimateAll(msgs, len(tools)) + maxOut)
	resv, err := a.budget.ReserveTokens(reserved)
	if err != nil {
		if held != "" {
			a.releaseRequest(ctx, held, err)
		}
		return modelResponse{}, a.exhausted(ctx, err)
	}
	slot, err := a.tracedAdmit(ctx, purpose)
	if err != nil {
		a.budget.Release(resv)
		if held != "" {
			a.releaseRequest(ctx, held, err)
		}
		if ctx.Err() != nil {
			return modelResponse{}, stopped(ctx, err)
		}
		return modelResponse{}, stopWith(core.CodeOf(err), "admission", err)
	}
	id := held
	if id == "" {
		if id, err = a.Journal.ProviderStart(ctx, a.refs, purpose, a.ModelName); err != nil {
			slot.CancelBeforeDispatch()
			a.budget.Release(resv)
			return modelResponse{}, stopWith(core.CodeStorageError, "journal_unavailable", err)
		}
	}
	slot.Dispatched()
	a.probe.sending()
	resp, err := a.complete(ctx, modelRequest{Purpose: purpose, Messages: msgs, Tools: tools, MaxTokens: maxOut}, func(d liveDelta) {
		a.emit(map[string]any{"v": 1, "type": "live.delta", "task": a.refs.Task, "attempt": a.refs.Attempt, "kind": d.Kind, "text": d.Text})
	})
	if err != nil {
		state := "uncertain" // the server may have processed it
		if fe := core.AsError(err); fe.Details["status"] != nil && ctx.Err() == nil {
			state = "completed" // it answered, with an error: nothing generated
			slot.Complete()
			a.budget.Release(resv)
			a.tokens.failed(0)
		} else {
			slot.Uncertain()              // stays occupied until reconciled
			a.budget.Reconcile(resv, nil) // unknown usage is charged in full
			a.tokens.failed(reserved)
		}
		a.Journal.ProviderFailed(context.WithoutCancel(ctx), a.refs, id, state, err)
		if ctx.Err() != nil {
			return modelResponse{}, stopped(ctx, err)
		}
		return modelResponse{}, stopWith(providerCode(err), "provider_error", err)
	}
	slot.Complete()
	a.tokens.add(resp)
	var reported *int64
	if resp.Usage.Input != nil && resp.Usage.Output != nil {
		total := *resp.Usage.Input + *resp.Usage.Output
		reported = &total
	}
	a.budget.Reconcile(resv, reported)
	msg := map[string]any{"role": roleAssistant, "purpose": purpose, "content": resp.Content, "tool_calls": len(resp.ToolCalls), "finish_reason": resp.FinishReason}
	settle := a.Journal.ProviderEnd
	if purpose == purposeTurn && len(resp.ToolCalls) > 0 {
		// The turn's first tool call commits next, with its decision and
		// intent, before anything is dispatched: the response joins it.
		settle = a.Journal.ProviderEndWithNext
	}
	// The response arrived whole: it is settled even when the task was
	// cancelled meanwhile (an unsettled one would be called uncertain).
	if err := settle(context.WithoutCancel(ctx), a.refs, id, "completed", resp.Usage, msg); err != nil {
		return modelResponse{}, stopWith(core.CodeStorageError, "journal_unavailable", err)
	}
	if ctx.Err() != nil {
		return modelResponse{}, stopped(ctx, ctx.Err())
	}
	return resp, nil
}

func providerCode(err error) core.Code {
	c := core.CodeOf(err)
	switch c {
	case core.CodeCancelled, core.CodeCapacityExhausted, core.CodeCapacityWaitTimeout, core.CodeBudgetExhausted:
		return c
	}
	return core.CodeProviderError
}

// record appends a durable event; a journal failure is not fatal for an
// informational event, but it is visible as a live record.
func (a *run) record(ctx context.Context, typ string, data any) {
	if _, err := a.Journal.Record(ctx, a.refs, typ, data); err != nil {
		a.emit(map[string]any{"v": 1, "type": "live.warning", "message": "could not record " + typ, "error": core.AsError(err)})
	}
}

// compactIfNeeded summarizes older history before a request would exceed
// the threshold. Failure blocks the task with a distinct reason: it never
// loops and never drops context silently.
func (a *run) compactIfNeeded(ctx context.Context) error {
	if a.Context.Window <= 0 {
		return nil
	}
	plan, err := planCompaction(a.msgs, len(a.toolSchemas()), a.Context)
	if err != nil {
		return a.compactionBlocked(ctx, plan, reasonOf(err, reasonCompactionNothingEligible), err)
	}
	if !plan.Needed {
		return nil
	}
	resp, err := a.request(ctx, purposeCompaction, compactionRequest(a.msgs, plan), nil)
	if err != nil {
		var s *stop
		if errors.As(err, &s) && s.status == core.CodeBudgetExhausted {
			return a.compactionBlocked(ctx, plan, reasonCompactionBudget, err)
		}
		if ctx.Err() != nil || (errors.As(err, &s) && s.status == core.CodeCancelled) {
			return a.compactionCancelled(ctx, plan, err)
		}
		return a.compactionBlocked(ctx, plan, reasonCompactionProviderError, err)
	}
	summary, err := parseSummary(resp.Content)
	if err != nil {
		return a.compactionBlocked(ctx, plan, reasonCompactionInvalidSummary, err)
	}
	body, _ := json.Marshal(map[string]any{"v": 1, "type": "compaction_summary", "task": a.refs.Task, "attempt": a.refs.Attempt, "source": map[string]int{"from": plan.From, "to": plan.To}, "summary": summary})
	art, err := a.Journal.PutArtifact(ctx, a.refs, body, "application/json")
	if err != nil {
		return a.compactionBlocked(ctx, plan, reasonCompactionPersistence, err)
	}
	next := applyCompaction(a.msgs, plan, summary, art)
	after := estimateAll(next, len(a.toolSchemas()))
	if after > plan.Trigger {
		err := core.Errorf(core.CodeFailed, "the context is still over its threshold after compaction (about %d tokens, threshold %d); the history was left as it was", after, plan.Trigger).
			WithHint("raise the model's context_window, lower context.overhead_tokens or the output reserve, or narrow the task")
		return a.compactionBlocked(ctx, plan, reasonCompactionStillTooLarge, err)
	}
	// The artifact is durable and the compaction recorded before the
	// context pointer moves.
	sum, _ := json.Marshal(summary)
	if err := a.Journal.Compacted(ctx, a.refs, compaction{BeforeTokens: int64(plan.Estimated), AfterTokens: int64(after), Summary: string(sum), Artifact: art, From: plan.From, To: plan.To, Trigger: plan.Trigger}); err != nil {
		return a.compactionBlocked(ctx, plan, reasonCompactionPersistence, err)
	}
	a.msgs = next
	return nil
}

func (a *run) compactionBlocked(ctx context.Context, plan compactionPlan, reason string, err error) error {
	a.record(ctx, core.EvCompaction, map[string]any{"outcome": "blocked", "reason": reason, "before_tokens_estimate": plan.Estimated, "trigger": plan.Trigger})
	return stopWith("blocked", reason, err)
}

// compactionCancelled ends a task cancelled while its compaction request
// was in flight: the context is left as it was and the compaction is
// recorded as cancelled, with its own reason.
func (a *run) compactionCancelled(ctx context.Context, plan compactionPlan, err error) error {
	a.record(context.WithoutCancel(ctx), core.EvCompaction, map[string]any{"outcome": "cancelled", "reason": reasonCompactionCancelled, "before_tokens_estimate": plan.Estimated, "trigger": plan.Trigger})
	return stopWith(core.CodeCancelled, reasonCompactionCancelled, err)
}

func reasonOf(err error, fallback string) string {
	if fe := core.AsError(err); fe != nil {
		if r, ok := fe.Details["reason"].(string); ok {
			return r
		}
	}
	return fallback
}

// noSlot is the slot of a runner without admission.
type noSlot struct{}

func (noSlot) Dispatched() error           { return nil }
func (noSlot) Complete() error             { return nil }
func (noSlot) Uncertain() error            { return nil }
func (noSlot) CancelBeforeDispatch() error { return nil }

func (a *run) admit(ctx context.Context, purpose string) (slot, error) {
	if a.Admit == nil {
		return noSlot{}, nil
	}
	return a.Admit(ctx, purpose)
}
