package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func allEvents(t *testing.T, q Queries, eq EventQuery) []core.Event {
	t.Helper()
	var out []core.Event
	if _, err := q.EachEvent(context.Background(), eq, func(ev core.Event) error {
		out = append(out, ev)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEventSeqGapFreeAcrossRollback(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, task := seedTask(t, s)
	boom := errors.New("caller failed")
	err := s.Write(ctx, func(tx *Tx) error {
		if _, _, err := tx.SetTaskState(task, core.TaskReady, ""); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v", err)
	}
	if got, _ := s.GetTask(ctx, task); got.State != core.TaskPending {
		t.Fatalf("rolled-back state change persisted: %s", got.State)
	}
	err = s.Write(ctx, func(tx *Tx) error {
		_, _, err := tx.SetTaskState(task, core.TaskReady, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := allEvents(t, s.Queries, EventQuery{Session: ses})
	for i, ev := range evs {
		if ev.Seq != int64(i+1) || ev.V != 1 || ev.ID == "" || ev.TS.IsZero() {
			t.Fatalf("event %d = %+v", i, ev)
		}
	}
	if len(evs) != 3 || evs[2].Type != core.EvTaskState {
		t.Fatalf("events = %+v", evs)
	}
}

func TestIllegalTransitionLeavesNoTrace(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, task := seedTask(t, s)
	before := len(allEvents(t, s.Queries, EventQuery{Session: ses}))
	err := s.Write(ctx, func(tx *Tx) error {
		_, _, err := tx.SetTaskState(task, core.TaskCompleted, "")
		return err
	})
	wantCode(t, err, core.CodeIllegalTransition)
	if after := len(allEvents(t, s.Queries, EventQuery{Session: ses})); after != before {
		t.Fatalf("events %d → %d after an illegal transition", before, after)
	}
}

func TestLifecycleRecordsAndEvents(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, task := seedTask(t, s)
	var att core.Attempt
	op := core.Operation{Tool: "fs.write", Args: []byte(`{"path":"a"}`)}
	grant := core.Grant{Scope: core.GrantOnce, Spec: "fs.write:a", Source: "user"}
	in := int64(10)
	err := s.Write(ctx, func(tx *Tx) error {
		tx.Meta = EventMeta{Trace: "trace-1"}
		steps := []func() error{
			func() error { _, _, err := tx.SetTaskState(task, core.TaskReady, ""); return err },
			func() error { _, _, err := tx.SetTaskState(task, core.TaskRunning, ""); return err },
			func() error { att.TaskID = task; _, err := tx.StartAttempt(&att); return err },
			func() error {
				p := core.ProviderRequest{AttemptID: att.ID, Purpose: "turn", Model: "m"}
				if _, err := tx.CreateProviderRequest(&p); err != nil {
					return err
				}
				if _, _, err := tx.SetProviderRequestState(p.ID, core.SlotDispatched, nil); err != nil {
					return err
				}
				_, _, err := tx.SetProviderRequestState(p.ID, core.SlotCompleted, &Usage{InputTokens: &in, Source: "provider"})
				return err
			},
			func() error { op.AttemptID = att.ID; _, err := tx.CreateOperation(&op); return err },
			func() error { grant.TaskID = task; _, err := tx.IssueGrant(&grant); return err },
			func() error {
				_, _, err := tx.SetOperationState(op.ID, core.OpAuthorized, OperationUpdate{Decision: "ask_user", GrantID: grant.ID})
				return err
			},
			func() error { _, _, err := tx.SetGrantState(grant.ID, core.GrantConsumed, op.ID); return err },
			func() error {
				_, _, err := tx.SetOperationState(op.ID, core.OpIntentCommitted, OperationUpdate{})
				return err
			},
			func() error {
				_, err := tx.AddMessage(&Message{SessionID: ses, TaskID: task, Role: "user", Content: "hi"})
				return err
			},
			func() error {
				_, err := tx.SaveConfigSnapshot(&ConfigSnapshot{SessionID: ses, AttemptID: att.ID, Fingerprint: "f", Body: "x=1"})
				return err
			},
			func() error {
				_, err := tx.AddObservation(&Observation{SessionID: ses, Kind: "laya", Data: json.RawMessage(`{"score":1}`)})
				return err
			},
			func() error { _, err := tx.AddCompaction(&Compaction{SessionID: ses, TaskID: task}); return err },
		}
		for i, step := range steps {
			if err := step(); err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := allEvents(t, s.Queries, EventQuery{Session: ses})
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
		if ev.Trace != "trace-1" && ev.Type != core.EvSessionCreated && ev.Type != core.EvTaskCreated {
			t.Fatalf("event %s lost the transaction's trace", ev.Type)
		}
	}
	want := "session.created task.created task.state task.state attempt.started provider.request provider.request provider.response operation.requested grant.issued operation.decision grant.consumed operation.intent message config.snapshot laya.observation compaction"
	if got := fmt.Sprint(types); got != "["+want+"]" {
		t.Fatalf("event types:\n got %s\nwant [%s]", got, want)
	}
	reqs, _ := s.ListProviderRequests(ctx, att.ID)
	if len(reqs) != 1 || reqs[0].InputTokens == nil || *reqs[0].InputTokens != 10 || reqs[0].OutputTokens != nil {
		t.Fatalf("usage not kept as known/unknown: %+v", reqs)
	}
	msgs, _ := s.ListMessages(ctx, ses, "", 10)
	comps, _ := s.ListCompactions(ctx, ses)
	if len(msgs) != 1 || len(comps) != 1 || comps[0].BeforeTokens != nil {
		t.Fatalf("messages %v compactions %v", msgs, comps)
	}
	typed := allEvents(t, s.Queries, EventQuery{Type: "operation.*,grant.consumed"})
	if len(typed) != 4 {
		t.Fatalf("type filter returned %d events", len(typed))
	}
}

func TestRecoverMarksInterruptedAndUnknown(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, task := seedTask(t, s)
	var att core.Attempt
	op := core.Operation{Tool: "proc.run"}
	grant := core.Grant{Scope: core.GrantOnce, Spec: "proc.run:x", Source: "user"}
	err := s.Write(ctx, func(tx *Tx) error {
		tx.SetTaskState(task, core.TaskReady, "")
		tx.SetTaskState(task, core.TaskRunning, "")
		att.TaskID = task
		if _, err := tx.StartAttempt(&att); err != nil {
			return err
		}
		op.AttemptID = att.ID
		tx.CreateOperation(&op)
		tx.SetOperationState(op.ID, core.OpAuthorized, OperationUpdate{})
		tx.SetOperationState(op.ID, core.OpIntentCommitted, OperationUpdate{})
		_, _, err := tx.SetOperationState(op.ID, core.OpDispatched, OperationUpdate{})
		grant.TaskID = task
		tx.IssueGrant(&grant)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Attempts) != 1 || len(rep.Operations) != 1 || len(rep.Tasks) != 1 || len(rep.Grants) != 1 {
		t.Fatalf("report = %+v", rep)
	}
	a, _ := s.GetAttempt(ctx, att.ID)
	o, _ := s.GetOperation(ctx, op.ID)
	tk, _ := s.GetTask(ctx, task)
	if a.State != core.AttemptInterrupted || o.State != core.OpUnknown || tk.State != core.TaskBlocked || tk.Reason != ReasonInterrupted {
		t.Fatalf("after recovery: attempt %s, op %s, task %s/%s", a.State, o.State, tk.State, tk.Reason)
	}
	unknown := allEvents(t, s.Queries, EventQuery{Session: ses, Type: core.EvOperationUnknown})
	if len(unknown) != 1 || unknown[0].Operation != op.ID {
		t.Fatalf("operation.unknown events = %+v", unknown)
	}
	again, err := s.Recover(ctx)
	if err != nil || again.Changed() {
		t.Fatalf("second recovery = %+v, %v; want nothing to do", again, err)
	}
}

func TestReaderWorksWhileWriterHoldsLock(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	ses, _ := seedTask(t, s)
	inTx, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- s.Write(ctx, func(tx *Tx) error {
			if _, err := tx.Append(core.Event{Type: "test.pending", Session: ses}); err != nil {
				return err
			}
			close(inTx)
			<-release
			return nil
		})
	}()
	<-inTx
	r, err := OpenReadOnly(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if evs := allEvents(t, r.Queries, EventQuery{Session: ses}); len(evs) != 2 {
		t.Fatalf("reader saw %d events during the write; want the 2 committed", len(evs))
	}
	err = r.Write(ctx, func(*Tx) error { return nil })
	wantCode(t, err, core.CodeStorageError)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if evs := allEvents(t, r.Queries, EventQuery{Session: ses}); len(evs) != 3 {
		t.Fatalf("reader saw %d events after commit", len(evs))
	}
}

func TestAppendRejectsBadEvents(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, ev := range []core.Event{{}, {Type: "live.delta"}, {Type: "x", Data: json.RawMessage("{")}} {
		_, err := s.Append(ctx, ev)
		wantCode(t, err, core.CodeInvalidRequest)
	}
	ev, err := s.Append(ctx, core.Event{Type: "note"})
	if err != nil || ev.Seq != 1 {
		t.Fatalf("sessionless append = %+v, %v", ev, err)
	}
}
