package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
)

const operationCols = "id, attempt_id, tool, call_id, args, state, decision, rule, grant_id, result, artifact, created_at, updated_at"

func scanOperation(r interface{ Scan(...any) error }) (core.Operation, error) {
	var o core.Operation
	var created, updated string
	err := r.Scan(&o.ID, &o.AttemptID, &o.Tool, &o.CallID, &o.Args, &o.State, &o.Decision, &o.Rule,
		&o.GrantID, &o.Result, &o.Artifact, &created, &updated)
	o.CreatedAt, o.UpdatedAt = parseStamp(created), parseStamp(updated)
	return o, err
}

// CreateOperation stores a requested tool call of an attempt and appends
// operation.requested.
func (tx *Tx) CreateOperation(o *core.Operation) (core.Event, error) {
	session, task, err := tx.scopeOfAttempt(o.AttemptID)
	if err != nil {
		return core.Event{}, err
	}
	if o.ID == "" {
		o.ID = core.NewID(core.KindOperation)
	}
	if o.State == "" {
		o.State = core.OpRequested
	}
	if !o.State.Valid() {
		return core.Event{}, core.Errorf(core.CodeInvalidRequest, "unknown operation state %q", o.State)
	}
	o.CreatedAt, o.UpdatedAt = tx.now, tx.now
	_, err = tx.q.ExecContext(tx.ctx, "INSERT INTO operations ("+operationCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		o.ID, o.AttemptID, o.Tool, o.CallID, o.Args, o.State, o.Decision, o.Rule, o.GrantID, o.Result, o.Artifact,
		stamp(o.CreatedAt), stamp(o.UpdatedAt))
	if err != nil {
		return core.Event{}, storageErr(err, "cannot create operation")
	}
	tx.keepOp(*o)
	return tx.event(core.Event{Type: core.EvOperationRequested, Session: session, Task: task, Attempt: o.AttemptID, Operation: o.ID},
		map[string]any{"tool": o.Tool, "call_id": o.CallID, "state": o.State})
}

// OperationUpdate carries the fields a transition may set; empty fields
// keep their stored value.
type OperationUpdate struct {
	Decision string // allow, deny, ask_user …
	Rule     string // the policy rule that decided
	GrantID  string // the grant consumed with the intent
	Result   []byte // sanitized result summary (JSON)
	Artifact string // sha256 of the full output artifact
	Reason   string // machine-readable reason, copied to the event
}

// operationEventType names the event recording a move to state s.
func operationEventType(s core.OperationState) string {
	switch s {
	case core.OpAuthorized, core.OpDenied:
		return core.EvOperationDecision
	case core.OpIntentCommitted:
		return core.EvOperationIntent
	case core.OpDispatched:
		return core.EvOperationDispatched
	case core.OpUnknown:
		return core.EvOperationUnknown
	default:
		return core.EvOperationResult
	}
}

// SetOperationState moves an operation along its lifecycle, validated by
// core.OperationState.Transition, and appends the matching event
// (operation.decision, .intent, .dispatched, .result or .unknown). Commit
// the intent (and consume its grant) in the same Write before dispatching.
func (tx *Tx) SetOperationState(id string, to core.OperationState, u OperationUpdate) (core.Operation, core.Event, error) {
	o, ok := tx.ops[id]
	if !ok {
		var err error
		if o, err = tx.GetOperation(tx.ctx, id); err != nil {
			return o, core.Event{}, err
		}
		tx.store.opReads++
	}
	if err := o.State.Transition(to); err != nil {
		return o, core.Event{}, core.AsError(err).With("operation", id)
	}
	from := o.State
	o.State, o.UpdatedAt = to, tx.now
	o.Decision = firstNonEmpty(u.Decision, o.Decision)
	o.Rule = firstNonEmpty(u.Rule, o.Rule)
	o.GrantID = firstNonEmpty(u.GrantID, o.GrantID)
	o.Artifact = firstNonEmpty(u.Artifact, o.Artifact)
	if u.Result != nil {
		o.Result = u.Result
	}
	st, err := tx.stmt(`UPDATE operations SET state = ?, decision = ?, rule = ?, grant_id = ?,
		result = ?, artifact = ?, updated_at = ? WHERE id = ?`)
	if err == nil {
		_, err = st.ExecContext(tx.ctx, o.State, o.Decision, o.Rule, o.GrantID, o.Result, o.Artifact, stamp(o.UpdatedAt), id)
	}
	if err != nil {
		return o, core.Event{}, storageErr(err, "cannot update operation "+id)
	}
	tx.keepOp(o)
	session, task, err := tx.scopeOfAttempt(o.AttemptID)
	if err != nil {
		return o, core.Event{}, err
	}
	data := map[string]any{"tool": o.Tool, "from": from, "to": to}
	for k, v := range map[string]string{"decision": u.Decision, "rule": u.Rule, "grant": u.GrantID, "artifact": u.Artifact, "reason": u.Reason} {
		if v != "" {
			data[k] = v
		}
	}
	if to == core.OpDenied {
		// A refusal names what was refused, so show, diag and replay can
		// say it without the operation row.
		if a := attemptedOf(o.Args); len(a) > 0 {
			data["attempted"] = a
		}
	}
	ev, err := tx.event(core.Event{Type: operationEventType(to), Session: session, Task: task, Attempt: o.AttemptID, Operation: id}, data)
	return o, ev, err
}

// keepOp remembers an operation row as this transaction wrote it.
func (tx *Tx) keepOp(o core.Operation) {
	if tx.ops == nil {
		tx.ops = map[string]core.Operation{}
	}
	tx.ops[o.ID] = o
}

// attemptedKeys are the arguments that say what a tool call touches; file
// content and edit strings are left out (they may be long or sensitive).
var attemptedKeys = []string{"path", "argv", "script", "cwd", "url", "pattern"}

// maxAttemptedBytes bounds one attempted argument in an event.
const maxAttemptedBytes = 512

func attemptedOf(args []byte) map[string]any {
	var all map[string]json.RawMessage
	if json.Unmarshal(args, &all) != nil {
		return nil
	}
	out := map[string]any{}
	for _, k := range attemptedKeys {
		v, ok := all[k]
		if !ok {
			continue
		}
		if len(v) > maxAttemptedBytes {
			out[k] = string(v[:maxAttemptedBytes]) + "…"
			continue
		}
		out[k] = v
	}
	return out
}

// GetOperation returns one operation or not_found.
func (q Queries) GetOperation(ctx context.Context, id string) (core.Operation, error) {
	o, err := scanOperation(q.q.QueryRowContext(ctx, "SELECT "+operationCols+" FROM operations WHERE id = ?", id))
	return o, scanOne(err, "operation", id)
}

// ListOperations returns an attempt's operations in creation order.
func (q Queries) ListOperations(ctx context.Context, attemptID string) ([]core.Operation, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (core.Operation, error) { return scanOperation(r) },
		"SELECT "+operationCols+" FROM operations WHERE attempt_id = ? ORDER BY created_at, id", attemptID)
}
