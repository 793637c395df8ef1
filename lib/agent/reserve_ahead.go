package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
)

// A turn's next model request is reserved in the commit of its last tool
// outcome (issue 21: the reservation shares the previous turn's final
// commit where the state allows), so a turn of tool calls costs one
// request commit fewer. It is recorded exactly as ProviderStart records
// it — reserved and dispatched, before anything is sent — so a crash
// before the send leaves it for recovery to mark uncertain, never lost.
// A reservation that ends up not sent (the task stopped, a budget or
// admission refused it, compaction came first) is settled as not sent
// before anything else commits.

// reserveAhead returns the reservation to commit with the outcome of the
// turn's last call, or nil when the next step may not be a plain turn
// request: the call stopped the task, the turn limit is next, the user
// queued an intervention, MCP servers may change the tools, the context
// may need compaction. (A cancelled task's last call does not ask.)
func (a *run) reserveAhead(out toolOutcome, stop error, resultBytes int) *reservation {
	if stop != nil || sandboxUnavailable(out) || !a.steps.nextIsNormal() ||
		a.Inbox.pending() || a.mcp != nil || a.mayCompact(resultBytes) {
		return nil
	}
	return &reservation{Purpose: purposeTurn, Model: a.ModelName}
}

// reserveFirst returns the reservation of a fresh attempt's first
// request, committed with the start's records, or nil when the first
// step may not be a plain turn request (reserveAhead's conditions), the
// attempt resumes an earlier one (its own records come between) or the
// task has no verification contract (it stops before any request, and
// no provider record may appear).
func (a *run) reserveFirst() *reservation {
	if a.resumed || (a.verify == "" && !a.waived) || !a.steps.nextIsNormal() || a.Inbox.pending() || a.mcp != nil || a.mayCompact(0) {
		return nil
	}
	return &reservation{Purpose: purposeTurn, Model: a.ModelName}
}

// mayCompact reports whether the context, with a result of resultBytes
// added, could be over the compaction threshold (an over-estimate: the
// result enters the context bounded).
func (a *run) mayCompact(resultBytes int) bool {
	if a.Context.Window <= 0 {
		return false
	}
	const margin = 64 // the tool message's id and truncation marker
	est := estimateAll(a.msgs, len(a.toolSchemas())) + resultBytes/4 + margin
	return est > a.Context.trigger()
}

// takeReserved returns the reserved request for a request of purpose, or
// "" when there is none; a reservation for another purpose is settled as
// not sent first.
func (a *run) takeReserved(ctx context.Context, purpose string) string {
	r := a.reserved
	if r == nil {
		return ""
	}
	if r.Purpose != purpose {
		a.releaseReserved(ctx, core.Errorf(core.CodeCancelled, "a %s request was needed first", purpose))
		return ""
	}
	a.reserved = nil
	return r.ID
}

// releaseReserved settles a reservation that will not be sent: nothing
// reached the server, so nothing was generated (its usage stays unknown,
// never zero), and the event says why.
func (a *run) releaseReserved(ctx context.Context, why error) {
	r := a.reserved
	if r == nil {
		return
	}
	a.reserved = nil
	a.releaseRequest(ctx, r.ID, why)
}

func (a *run) releaseRequest(ctx context.Context, id string, why error) {
	fe := core.AsError(why)
	cause := core.Errorf(fe.Code, "the reserved request was not sent: %s", fe.Message)
	if err := a.Journal.ProviderFailed(context.WithoutCancel(ctx), a.refs, id, string(core.SlotCompleted), cause); err != nil {
		a.emit(map[string]any{"v": 1, "type": "live.warning", "message": "could not settle the reserved request " + id, "error": core.AsError(err)})
	}
}
