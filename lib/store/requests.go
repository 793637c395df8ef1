package store

import (
	"context"
	"database/sql"

	"github.com/josecorral/fluzo/lib/core"
)

const requestCols = "id, attempt_id, purpose, model, state, input_tokens, output_tokens, usage_source, created_at, updated_at"

func scanRequest(r interface{ Scan(...any) error }) (core.ProviderRequest, error) {
	var p core.ProviderRequest
	var in, out sql.NullInt64
	var created, updated string
	err := r.Scan(&p.ID, &p.AttemptID, &p.Purpose, &p.Model, &p.State, &in, &out, &p.UsageSource, &created, &updated)
	p.InputTokens, p.OutputTokens = nullInt(in), nullInt(out)
	p.CreatedAt, p.UpdatedAt = parseStamp(created), parseStamp(updated)
	return p, err
}

// CreateProviderRequest stores a reserved provider request of an attempt
// and appends provider.request.
func (tx *Tx) CreateProviderRequest(p *core.ProviderRequest) (core.Event, error) {
	session, task, err := tx.scopeOfAttempt(p.AttemptID)
	if err != nil {
		return core.Event{}, err
	}
	if p.ID == "" {
		p.ID = core.NewID(core.KindRequest)
	}
	if p.State == "" {
		p.State = core.SlotReserved
	}
	if !p.State.Valid() {
		return core.Event{}, core.Errorf(core.CodeInvalidRequest, "unknown provider request state %q", p.State)
	}
	p.CreatedAt, p.UpdatedAt = tx.now, tx.now
	_, err = tx.q.ExecContext(tx.ctx, "INSERT INTO provider_requests ("+requestCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		p.ID, p.AttemptID, p.Purpose, p.Model, p.State, intOrNull(p.InputTokens), intOrNull(p.OutputTokens),
		p.UsageSource, stamp(p.CreatedAt), stamp(p.UpdatedAt))
	if err != nil {
		return core.Event{}, storageErr(err, "cannot create provider request")
	}
	tx.keepRequest(*p)
	return tx.event(core.Event{Type: core.EvProviderRequest, Session: session, Task: task, Attempt: p.AttemptID},
		map[string]any{"request": p.ID, "purpose": p.Purpose, "model": p.Model, "state": p.State})
}

// Usage is what a provider reported; nil counts stay unknown (never 0).
type Usage struct {
	InputTokens  *int64
	OutputTokens *int64
	Source       string // "provider", "estimate", …
}

// SetProviderRequestState moves a provider request along its lifecycle
// (core.SlotState.Transition), records usage when given, and appends
// provider.request (dispatched) or provider.response (every end state).
func (tx *Tx) SetProviderRequestState(id string, to core.SlotState, u *Usage) (core.ProviderRequest, core.Event, error) {
	return tx.setProviderRequestState(id, to, u, nil)
}

// ProviderFailure is what a failed provider request leaves in its
// provider.response event: the error code, the HTTP status when one
// arrived, the message and every attempt made.
type ProviderFailure struct {
	Code     core.Code `json:"code"`
	Status   any       `json:"status,omitempty"`
	Message  string    `json:"message"`
	Attempts any       `json:"attempts,omitempty"`
}

// FailProviderRequest ends a provider request that failed: like
// SetProviderRequestState, with outcome "failed" and the failure in the
// event, so the detail outlives the run's stdout.
func (tx *Tx) FailProviderRequest(id string, to core.SlotState, u *Usage, f ProviderFailure) (core.ProviderRequest, core.Event, error) {
	return tx.setProviderRequestState(id, to, u, map[string]any{"outcome": "failed", "error": f})
}

func (tx *Tx) setProviderRequestState(id string, to core.SlotState, u *Usage, extra map[string]any) (core.ProviderRequest, core.Event, error) {
	p, ok := tx.requests[id]
	if !ok {
		var err error
		if p, err = tx.GetProviderRequest(tx.ctx, id); err != nil {
			return p, core.Event{}, err
		}
		tx.store.requestReads++
	}
	if err := p.State.Transition(to); err != nil {
		return p, core.Event{}, core.AsError(err).With("provider_request", id)
	}
	from := p.State
	p.State, p.UpdatedAt = to, tx.now
	if u != nil {
		p.InputTokens, p.OutputTokens, p.UsageSource = u.InputTokens, u.OutputTokens, u.Source
	}
	_, err := tx.q.ExecContext(tx.ctx, `UPDATE provider_requests SET state = ?, input_tokens = ?, output_tokens = ?,
		usage_source = ?, updated_at = ? WHERE id = ?`,
		p.State, intOrNull(p.InputTokens), intOrNull(p.OutputTokens), p.UsageSource, stamp(p.UpdatedAt), id)
	if err != nil {
		return p, core.Event{}, storageErr(err, "cannot update provider request "+id)
	}
	tx.keepRequest(p)
	session, task, err := tx.scopeOfAttempt(p.AttemptID)
	if err != nil {
		return p, core.Event{}, err
	}
	typ := core.EvProviderResponse
	if to == core.SlotDispatched {
		typ = core.EvProviderRequest
	}
	data := map[string]any{"request": id, "from": from, "to": to, "model": p.Model,
		"input_tokens": p.InputTokens, "output_tokens": p.OutputTokens, "usage_source": p.UsageSource}
	for k, v := range extra {
		data[k] = v
	}
	ev, err := tx.event(core.Event{Type: typ, Session: session, Task: task, Attempt: p.AttemptID}, data)
	return p, ev, err
}

// keepRequest remembers a provider request row as this transaction wrote
// it (see Tx.requests).
func (tx *Tx) keepRequest(p core.ProviderRequest) {
	if tx.requests == nil {
		tx.requests = map[string]core.ProviderRequest{}
	}
	tx.requests[p.ID] = p
}

// GetProviderRequest returns one provider request or not_found.
func (q Queries) GetProviderRequest(ctx context.Context, id string) (core.ProviderRequest, error) {
	p, err := scanRequest(q.q.QueryRowContext(ctx, "SELECT "+requestCols+" FROM provider_requests WHERE id = ?", id))
	return p, scanOne(err, "provider_request", id)
}

// ListProviderRequests returns an attempt's provider requests in order.
func (q Queries) ListProviderRequests(ctx context.Context, attemptID string) ([]core.ProviderRequest, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (core.ProviderRequest, error) { return scanRequest(r) },
		"SELECT "+requestCols+" FROM provider_requests WHERE attempt_id = ? ORDER BY created_at, id", attemptID)
}
