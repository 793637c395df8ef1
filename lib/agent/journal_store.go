package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/telemetry"
)

// storeJournal is the journal over the workspace store. Every committed
// event is passed to Emit after its transaction commits (the --json
// stream and the port's subscribers).
type storeJournal struct {
	S    *store.Store
	Emit func(core.Event)

	// held is a provider request's settlement waiting for the run's next
	// commit (ProviderEndWithNext); heldMu guards it.
	heldMu sync.Mutex
	held   txWrite
}

// txWrite is the body of one journal transaction.
type txWrite func(tx *store.Tx, add func(core.Event, error) error) error

// write runs fn in one transaction and emits its events after commit. A
// held settlement is written first in the same transaction; when the
// transaction fails it stays held for the next one.
func (j *storeJournal) write(ctx context.Context, refs Refs, fn txWrite) error {
	held := j.takeHeld()
	var evs []core.Event
	err := j.S.Write(ctx, func(tx *store.Tx) error {
		evs = evs[:0]
		tx.Meta.Trace = refs.Trace
		_, tx.Meta.Span = telemetry.IDs(ctx)
		add := func(ev core.Event, err error) error {
			if err == nil {
				evs = append(evs, ev)
			}
			return err
		}
		if held != nil {
			if err := held(tx, add); err != nil {
				return err
			}
		}
		return fn(tx, add)
	})
	if err != nil && held != nil {
		j.restoreHeld(held)
	}
	if err == nil && j.Emit != nil {
		for _, ev := range evs {
			j.Emit(ev)
		}
	}
	return err
}

// StartTask creates the session (when new), the task, its --allow grants,
// the running first attempt and the configuration snapshot together.
func (j *storeJournal) StartTask(ctx context.Context, t taskStart) (Refs, error) {
	refs := Refs{Session: t.Session, Trace: newTraceID()}
	err := j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		if refs.Session == "" {
			s := core.Session{Title: title(t.Request)}
			if err := add(tx.CreateSession(&s)); err != nil {
				return err
			}
			refs.Session = s.ID
		}
		task := core.Task{ID: t.ID, SessionID: refs.Session, Request: t.Request, Verify: t.Verify}
		if err := add(tx.CreateTask(&task)); err != nil {
			return err
		}
		refs.Task = task.ID
		for _, to := range []core.TaskState{core.TaskReady, core.TaskRunning} {
			_, ev, err := tx.SetTaskState(task.ID, to, "")
			if err := add(ev, err); err != nil {
				return err
			}
		}
		for _, g := range t.Grants {
			g.TaskID = task.ID
			if err := add(tx.IssueGrant(&g)); err != nil {
				return err
			}
		}
		att := core.Attempt{TaskID: task.ID, TraceID: refs.Trace}
		if err := add(tx.StartAttempt(&att)); err != nil {
			return err
		}
		refs.Attempt = att.ID
		if err := recordWorktree(tx, add, refs, t.Worktree); err != nil {
			return err
		}
		// The verification contract commits with the task: a crash right
		// after creation must not leave a task resume cannot complete.
		// (The command is in the task row; the waiver is this event.)
		if t.NoVerify && t.Verify == "" {
			if err := add(tx.Append(core.Event{Type: core.EvVerificationWaived, Session: refs.Session, Task: task.ID, Attempt: att.ID, Trace: refs.Trace, Data: waiverBody})); err != nil {
				return err
			}
		}
		if len(t.Config) > 0 {
			sum := sha256.Sum256(t.Config)
			snap := store.ConfigSnapshot{SessionID: refs.Session, AttemptID: att.ID, Fingerprint: hex.EncodeToString(sum[:8]), Body: string(t.Config), Sandbox: t.Sandbox}
			return add(tx.SaveConfigSnapshot(&snap))
		}
		return nil
	})
	return refs, err
}

// waiverBody is the data of a verification.waived event.
var waiverBody = json.RawMessage(`{"reason":"the user waived verification (--no-verify)"}`)

func title(request string) string {
	if len(request) > 80 {
		return request[:80]
	}
	return request
}

// newTraceID returns a W3C trace id (32 hex digits) for an attempt.
func newTraceID() string {
	id := core.NewID("t")
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

func (j *storeJournal) Record(ctx context.Context, refs Refs, typ string, data any) (core.Event, error) {
	body, err := json.Marshal(data)
	if err != nil {
		return core.Event{}, core.Wrap(err, core.CodeInternal, "cannot encode the "+typ+" event")
	}
	var out core.Event
	err = j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		ev, err := tx.Append(core.Event{Type: typ, Session: refs.Session, Task: refs.Task, Attempt: refs.Attempt, Trace: refs.Trace, Data: body})
		out = ev
		return add(ev, err)
	})
	return out, err
}

func (j *storeJournal) OpRequested(ctx context.Context, refs Refs, call toolCall) (string, error) {
	op := core.Operation{AttemptID: refs.Attempt, Tool: call.Name, CallID: call.ID, Args: call.Args}
	err := j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		return add(tx.CreateOperation(&op))
	})
	return op.ID, err
}

func (j *storeJournal) OpAuthorize(ctx context.Context, refs Refs, call toolCall, op string, d Decision) (string, error) {
	err := j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		if op == "" {
			o := core.Operation{AttemptID: refs.Attempt, Tool: call.Name, CallID: call.ID, Args: call.Args}
			if err := add(tx.CreateOperation(&o)); err != nil {
				return err
			}
			op = o.ID
		}
		to := core.OpAuthorized
		if d.Verdict != verdictAllow {
			to = core.OpDenied
		}
		_, ev, err := tx.SetOperationState(op, to, store.OperationUpdate{Decision: d.Verdict, Rule: d.Rule, Reason: d.Reason})
		if err := add(ev, err); err != nil || to == core.OpDenied {
			return err
		}
		_, ev, err = tx.SetOperationState(op, core.OpIntentCommitted, store.OperationUpdate{GrantID: d.GrantID})
		if err := add(ev, err); err != nil {
			return err
		}
		if d.Once && d.GrantID != "" {
			_, ev, err := tx.SetGrantState(d.GrantID, core.GrantConsumed, op)
			return add(ev, err)
		}
		return nil
	})
	return op, err
}

// maxStoredResult bounds the result summary kept in the operation row;
// the full result is in the artifact.
const maxStoredResult = 16 << 10

func (j *storeJournal) OpResult(ctx context.Context, refs Refs, op string, r toolResult) (string, error) {
	to, reason := outcomeState(r.Out)
	body, _ := json.Marshal(r.Out)
	if len(body) > maxStoredResult {
		body, _ = json.Marshal(truncatedResult(r.Out, len(body)))
	}
	derived := make([]core.Event, 0, len(r.Events))
	for _, d := range r.Events {
		data, err := json.Marshal(d.Data)
		if err != nil {
			return "", core.Wrap(err, core.CodeInternal, "cannot encode the "+d.Type+" event")
		}
		derived = append(derived, core.Event{Type: d.Type, Session: refs.Session, Task: refs.Task, Attempt: refs.Attempt, Trace: refs.Trace, Data: data})
	}
	// The artifact file is fsynced before the commit that references it
	// (file syncs, not a commit of its own).
	var ref store.ArtifactRef
	if r.Full != nil {
		var err error
		if ref, err = j.S.PutArtifact(ctx, bytes.NewReader(r.Full), "application/json"); err != nil {
			return "", err
		}
	}
	err := j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		// Dispatch is marked here, not in a commit of its own: a crash
		// before this commit leaves the intent, which recovery already
		// resolves as unknown exactly like a dispatched operation.
		_, ev, err := tx.SetOperationState(op, core.OpDispatched, store.OperationUpdate{})
		if err := add(ev, err); err != nil {
			return err
		}
		if ref.SHA256 != "" {
			if err := tx.AttachArtifact(refs.Session, ref); err != nil {
				return err
			}
		}
		_, ev, err = tx.SetOperationState(op, to, store.OperationUpdate{Result: body, Artifact: ref.SHA256, Reason: reason})
		if err := add(ev, err); err != nil {
			return err
		}
		for _, d := range derived {
			if err := add(tx.Append(d)); err != nil {
				return err
			}
		}
		if r.Reserve != nil {
			id, err := reserveRequest(tx, add, refs, r.Reserve.Purpose, r.Reserve.Model)
			if err != nil {
				return err
			}
			r.Reserve.ID = id
		}
		return nil
	})
	if err != nil && r.Reserve != nil {
		r.Reserve.ID = ""
	}
	return ref.SHA256, err
}

// outcomeState is the operation state and reason an outcome records.
func outcomeState(out toolOutcome) (core.OperationState, string) {
	switch {
	case out.Unknown:
		reason := ReasonToolBackendLost
		if out.Error != nil {
			if r, ok := out.Error.Details["reason"].(string); ok {
				reason = r // e.g. mcp_server_lost
			}
		}
		return core.OpUnknown, reason
	case !out.OK:
		if out.Error != nil {
			return core.OpFailed, string(out.Error.Code)
		}
		return core.OpFailed, ""
	case stoppedByCancel(out).Cancelled:
		// The command did not finish: the task's cancel ended it. It is
		// not a success with exit -1.
		return core.OpFailed, string(core.CodeCancelled)
	}
	return core.OpSucceeded, ""
}

// PutArtifact stores data durably, then links it to the session.
func (j *storeJournal) PutArtifact(ctx context.Context, refs Refs, data []byte, mediaType string) (string, error) {
	ref, err := j.S.PutArtifact(ctx, bytes.NewReader(data), mediaType)
	if err != nil {
		return "", err
	}
	err = j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		return tx.AttachArtifact(refs.Session, ref)
	})
	return ref.SHA256, err
}

func (j *storeJournal) RecordStart(ctx context.Context, refs Refs, data []byte, mediaType string, reserve *reservation, build func(artifact string) []derivedEvent) (string, error) {
	ref, err := j.S.PutArtifact(ctx, bytes.NewReader(data), mediaType)
	if err != nil {
		return "", err
	}
	evs := build(ref.SHA256)
	bodies := make([]json.RawMessage, len(evs))
	for i, d := range evs {
		if bodies[i], err = json.Marshal(d.Data); err != nil {
			return "", core.Wrap(err, core.CodeInternal, "cannot encode the "+d.Type+" event")
		}
	}
	err = j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		if err := tx.AttachArtifact(refs.Session, ref); err != nil {
			return err
		}
		for i, d := range evs {
			if err := add(tx.Append(core.Event{Type: d.Type, Session: refs.Session, Task: refs.Task, Attempt: refs.Attempt, Trace: refs.Trace, Data: bodies[i]})); err != nil {
				return err
			}
		}
		if reserve != nil {
			id, err := reserveRequest(tx, add, refs, reserve.Purpose, reserve.Model)
			if err != nil {
				return err
			}
			reserve.ID = id
		}
		return nil
	})
	if err != nil && reserve != nil {
		reserve.ID = ""
	}
	return ref.SHA256, err
}

func (j *storeJournal) ProviderStart(ctx context.Context, refs Refs, purpose, model string) (string, error) {
	var id string
	err := j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		var err error
		id, err = reserveRequest(tx, add, refs, purpose, model)
		return err
	})
	return id, err
}

// reserveRequest records a provider request as reserved and dispatched:
// written before the send, a crash leaves it for recovery to mark
// uncertain (it may have reached the server).
func reserveRequest(tx *store.Tx, add func(core.Event, error) error, refs Refs, purpose, model string) (string, error) {
	p := core.ProviderRequest{AttemptID: refs.Attempt, Purpose: purpose, Model: model}
	if err := add(tx.CreateProviderRequest(&p)); err != nil {
		return "", err
	}
	_, ev, err := tx.SetProviderRequestState(p.ID, core.SlotDispatched, nil)
	return p.ID, add(ev, err)
}

func (j *storeJournal) ProviderEnd(ctx context.Context, refs Refs, id, state string, u usage, message any) error {
	var body []byte
	if message != nil {
		var err error
		if body, err = json.Marshal(message); err != nil {
			return core.Wrap(err, core.CodeInternal, "cannot encode the message event")
		}
	}
	return j.write(ctx, refs, settlement(refs, id, state, u, body, ""))
}

// ProviderEndWithNext holds the settlement for the run's next commit; its
// events keep the span that was current here, not the next commit's.
func (j *storeJournal) ProviderEndWithNext(ctx context.Context, refs Refs, id, state string, u usage, message any) error {
	body, err := json.Marshal(message)
	if err != nil {
		return core.Wrap(err, core.CodeInternal, "cannot encode the message event")
	}
	j.heldMu.Lock()
	defer j.heldMu.Unlock()
	if j.held != nil {
		return core.Errorf(core.CodeInternal, "provider request %s: an earlier settlement is still waiting for a commit", id)
	}
	_, span := telemetry.IDs(ctx)
	j.held = settlement(refs, id, state, u, body, span)
	return nil
}

// settlement writes a provider request's end state with its usage and,
// when body is non-nil, its message event; span, when set, is their span.
func settlement(refs Refs, id, state string, u usage, body []byte, span string) txWrite {
	return func(tx *store.Tx, add func(core.Event, error) error) error {
		if span != "" {
			defer func(prev string) { tx.Meta.Span = prev }(tx.Meta.Span)
			tx.Meta.Span = span
		}
		_, ev, err := tx.SetProviderRequestState(id, core.SlotState(state), &store.Usage{InputTokens: u.Input, OutputTokens: u.Output, Source: u.Source})
		if err := add(ev, err); err != nil || body == nil {
			return err
		}
		return add(tx.Append(core.Event{Type: core.EvMessage, Session: refs.Session, Task: refs.Task, Attempt: refs.Attempt, Trace: refs.Trace, Data: body}))
	}
}

func (j *storeJournal) takeHeld() txWrite {
	j.heldMu.Lock()
	defer j.heldMu.Unlock()
	h := j.held
	j.held = nil
	return h
}

// restoreHeld puts back a settlement whose transaction failed.
func (j *storeJournal) restoreHeld(h txWrite) {
	j.heldMu.Lock()
	defer j.heldMu.Unlock()
	if j.held == nil {
		j.held = h
	}
}

func (j *storeJournal) Finish(ctx context.Context, refs Refs, task core.TaskState, attempt core.AttemptState, reason string) error {
	return j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		_, ev, err := tx.EndAttempt(refs.Attempt, attempt, reason)
		if err := add(ev, err); err != nil {
			return err
		}
		_, ev, err = tx.SetTaskState(refs.Task, task, reason)
		if err := add(ev, err); err != nil {
			return err
		}
		// A terminal state also expires the task's grants in this
		// transaction; their grant.expired events are durable events
		// like any other and reach the stream too.
		page, err := tx.Events(tx.Ctx(), store.EventQuery{Session: refs.Session, AfterSeq: ev.Seq})
		if err != nil {
			return err
		}
		for _, later := range page.Events {
			if err := add(later, nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// Compacted stores the compaction row and its event in one transaction.
func (j *storeJournal) Compacted(ctx context.Context, refs Refs, c compaction) error {
	return j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		rec := store.Compaction{SessionID: refs.Session, TaskID: refs.Task, AttemptID: refs.Attempt,
			BeforeTokens: &c.BeforeTokens, AfterTokens: &c.AfterTokens, Summary: c.Summary, Artifact: c.Artifact}
		if err := add(tx.AddCompaction(&rec)); err != nil {
			return err
		}
		// The outcome with its source range and estimates, like a blocked
		// compaction's event (the record's own event has no range).
		body, _ := json.Marshal(map[string]any{"outcome": "completed", "compaction": rec.ID, "artifact": c.Artifact, "from": c.From, "to": c.To,
			"before_tokens_estimate": c.BeforeTokens, "after_tokens_estimate": c.AfterTokens, "trigger": c.Trigger})
		return add(tx.Append(core.Event{Type: core.EvCompaction, Session: refs.Session, Task: refs.Task, Attempt: refs.Attempt, Trace: refs.Trace, Data: body}))
	})
}

// truncatedResult stands in for a result too large to store. It keeps the
// file and version a view reported, which resume revalidates.
func truncatedResult(out toolOutcome, size int) map[string]any {
	var file struct {
		Path    string `json:"path"`
		Version string `json:"version"`
	}
	json.Unmarshal(out.Result, &file)
	rec := map[string]any{"ok": out.OK, "truncated": true, "bytes": size}
	if file.Version != "" {
		rec["result"] = file
	}
	return rec
}
