package store

import (
	"context"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// turnWrites are the writes of one agent turn: a provider request
// reserved and settled, an operation authorized and settled.
func turnWrites(t *testing.T, s *Store, attempt string) (op string) {
	t.Helper()
	ctx := context.Background()
	var req string
	err := s.Write(ctx, func(tx *Tx) error {
		p := core.ProviderRequest{AttemptID: attempt, Purpose: "turn", Model: "m"}
		if _, err := tx.CreateProviderRequest(&p); err != nil {
			return err
		}
		req = p.ID
		if _, _, err := tx.SetProviderRequestState(p.ID, core.SlotDispatched, nil); err != nil {
			return err
		}
		o := core.Operation{AttemptID: attempt, Tool: "view", CallID: "c1", Args: []byte(`{}`)}
		if _, err := tx.CreateOperation(&o); err != nil {
			return err
		}
		op = o.ID
		if _, _, err := tx.SetOperationState(o.ID, core.OpAuthorized, OperationUpdate{Decision: "allow"}); err != nil {
			return err
		}
		_, _, err := tx.SetOperationState(o.ID, core.OpIntentCommitted, OperationUpdate{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// The response's commit, then the outcome's: dispatch marker and
	// result.
	err = s.Write(ctx, func(tx *Tx) error {
		_, _, err := tx.SetProviderRequestState(req, core.SlotCompleted, &Usage{Source: "unknown"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Write(ctx, func(tx *Tx) error {
		if _, _, err := tx.SetOperationState(op, core.OpDispatched, OperationUpdate{}); err != nil {
			return err
		}
		_, _, err := tx.SetOperationState(op, core.OpSucceeded, OperationUpdate{Result: []byte(`{"ok":true}`)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// A tool call's transitions within one transaction start from the row as
// that transaction wrote it: the intent's commit (create, decide, intent)
// reads no operation row back, the outcome's (dispatch marker, result)
// reads it once — two transitions, one read. Likewise a reservation
// (created, marked dispatched) reads no request row back; its settling,
// in the response's commit, reads it once.
func TestOperationRowsWrittenInATransactionAreNotReadBack(t *testing.T) {
	s, _ := openTemp(t)
	_, task := seedTask(t, s)
	att := core.Attempt{TaskID: task}
	if err := s.Write(context.Background(), func(tx *Tx) error { _, err := tx.StartAttempt(&att); return err }); err != nil {
		t.Fatal(err)
	}
	op := turnWrites(t, s, att.ID)
	if s.opReads != 1 || s.requestReads != 1 {
		t.Fatalf("%d operation rows read back in a tool call's two commits, want 1 (the outcome's first transition); %d request rows for a reservation and its settling, want 1", s.opReads, s.requestReads)
	}
	got, err := s.GetOperation(context.Background(), op)
	if err != nil || got.State != core.OpSucceeded || got.Decision != "allow" || string(got.Result) != `{"ok":true}` {
		t.Fatalf("stored operation %+v, %v", got, err)
	}
}

// The statements of a turn's commits are prepared once per store and
// reused: a second turn prepares nothing new, and the reads a write makes
// (the operation and request rows it moves) go through the cache too.
func TestTurnStatementsArePreparedOnce(t *testing.T) {
	s, _ := openTemp(t)
	_, task := seedTask(t, s)
	att := core.Attempt{TaskID: task}
	if err := s.Write(context.Background(), func(tx *Tx) error { _, err := tx.StartAttempt(&att); return err }); err != nil {
		t.Fatal(err)
	}
	turnWrites(t, s, att.ID)
	first := len(s.stmts)
	turnWrites(t, s, att.ID)
	if len(s.stmts) != first {
		t.Fatalf("a second turn prepared %d more statements", len(s.stmts)-first)
	}
	for _, want := range []string{"INSERT INTO provider_requests", "UPDATE provider_requests", "FROM provider_requests WHERE id = ?",
		"INSERT INTO operations", "UPDATE operations", "FROM operations WHERE id = ?", "INSERT INTO events", "max(seq)"} {
		found := false
		for q := range s.stmts {
			found = found || strings.Contains(q, want)
		}
		if !found {
			t.Errorf("no prepared statement for %q", want)
		}
	}
}

// A script of several statements is never prepared (a prepared statement
// runs only its first): every statement of it runs.
func TestScriptThroughTxRunsEveryStatement(t *testing.T) {
	s, _ := openTemp(t)
	ses, _ := seedTask(t, s)
	err := s.Write(context.Background(), func(tx *Tx) error {
		_, err := tx.q.ExecContext(tx.ctx, "UPDATE sessions SET title = 'a' WHERE id = '"+ses+"'; UPDATE sessions SET title = 'b' WHERE id = '"+ses+"'")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetSession(context.Background(), ses); got.Title != "b" {
		t.Fatalf("title = %q, want the second statement's", got.Title)
	}
}
