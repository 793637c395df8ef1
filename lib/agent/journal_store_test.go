package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// openStore opens a real store in a fresh, git-excluded repository.
func openStore(t testing.TB, files map[string]string) (*store.Store, string) {
	t.Helper()
	ctx := context.Background()
	dir := newRepo(t, files)
	ws, err := store.ResolveWorkspace(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.AddGitExclude(ctx, ws); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ws.Root
}

func TestStoreJournalRecordsTheOperationLifecycleInOrder(t *testing.T) {
	s, _ := openStore(t, map[string]string{"a.txt": "a"})
	ctx := context.Background()
	var seen []string
	j := &storeJournal{S: s, Emit: func(ev core.Event) { seen = append(seen, ev.Type) }}
	refs, err := j.StartTask(ctx, taskStart{Request: "fix", Verify: "cargo test", Grants: []core.Grant{{ID: core.NewID(core.KindGrant), Scope: core.GrantTask, Spec: "exec:cargo test", Source: "cli"}}, Config: []byte("schema_version = 1\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !core.ValidID(refs.Task, core.KindTask) || !core.ValidID(refs.Attempt, core.KindAttempt) || len(refs.Trace) != 32 {
		t.Fatalf("refs: %+v", refs)
	}
	call := toolCall{ID: "c1", Name: "exec", Args: json.RawMessage(`{"argv":["cargo","test"]}`)}
	d := Decision{Verdict: verdictAllow, Rule: "grant exec:cargo test"}
	op, err := j.OpAuthorize(ctx, refs, call, "", d)
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := s.GetOperation(ctx, op); o.State != core.OpIntentCommitted {
		t.Fatalf("decision and intent not committed together: %s", o.State)
	}
	for _, step := range []func() error{
		func() error {
			_, err := j.OpResult(ctx, refs, op, toolResult{Out: toolOutcome{OK: true, Result: json.RawMessage(`{"exit_code":101}`)}})
			return err
		},
		func() error { return j.Finish(ctx, refs, core.TaskFailed, core.AttemptFailed, "verification_failed") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	o, err := s.GetOperation(ctx, op)
	if err != nil || o.State != core.OpSucceeded || o.Rule != "grant exec:cargo test" {
		t.Fatalf("operation: %+v %v", o, err)
	}
	task, _ := s.GetTask(ctx, refs.Task)
	if task.State != core.TaskFailed || task.Reason != "verification_failed" {
		t.Fatalf("task: %+v", task)
	}
	grants, _ := s.ListGrants(ctx, refs.Task)
	if len(grants) != 1 || grants[0].Scope != core.GrantTask {
		t.Fatalf("grants: %+v", grants)
	}
	want := []string{core.EvOperationRequested, core.EvOperationDecision, core.EvOperationIntent, core.EvOperationDispatched, core.EvOperationResult}
	idx := 0
	for _, typ := range seen {
		if idx < len(want) && typ == want[idx] {
			idx++
		}
	}
	if idx != len(want) {
		t.Fatalf("emitted events out of order: %v", seen)
	}
	// An illegal transition is refused and leaves the record unchanged.
	if _, err := j.OpResult(ctx, refs, op, toolResult{Out: toolOutcome{OK: true}}); core.CodeOf(err) != core.CodeIllegalTransition {
		t.Fatalf("re-dispatch of a finished operation: %v", err)
	}
}

func TestStoreJournalArtifactsAreContentAddressed(t *testing.T) {
	s, _ := openStore(t, nil)
	ctx := context.Background()
	j := &storeJournal{S: s}
	refs, err := j.StartTask(ctx, taskStart{Request: "x"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := j.PutArtifact(ctx, refs, []byte("big output"), "text/plain")
	b, err2 := j.PutArtifact(ctx, refs, []byte("big output"), "text/plain")
	if err != nil || err2 != nil || a != b || len(a) != 64 {
		t.Fatalf("artifacts %s %s %v %v", a, b, err, err2)
	}
}

func TestStoreJournalOnceGrantIsConsumedWithTheIntent(t *testing.T) {
	s, _ := openStore(t, nil)
	ctx := context.Background()
	j := &storeJournal{S: s}
	g := core.Grant{ID: core.NewID(core.KindGrant), Scope: core.GrantOnce, Spec: "exec:make", Source: "user"}
	refs, err := j.StartTask(ctx, taskStart{Request: "x", Grants: []core.Grant{g}})
	if err != nil {
		t.Fatal(err)
	}
	op, err := j.OpAuthorize(ctx, refs, toolCall{ID: "c", Name: "exec", Args: json.RawMessage(`{"argv":["make"]}`)}, "", Decision{Verdict: verdictAllow, GrantID: g.ID, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetGrant(ctx, g.ID)
	o, _ := s.GetOperation(ctx, op)
	if got.State != core.GrantConsumed || o.GrantID != g.ID || o.State != core.OpIntentCommitted {
		t.Fatalf("grant %s, op %+v", got.State, o)
	}
	// A denial commits no intent.
	op2, _ := j.OpAuthorize(ctx, refs, toolCall{ID: "d", Name: "exec", Args: json.RawMessage(`{"argv":["rm","-rf","."]}`)}, "", Decision{Verdict: verdictDeny, Rule: "policy.destructive_commands=deny"})
	if o2, _ := s.GetOperation(ctx, op2); o2.State != core.OpDenied {
		t.Fatalf("denied op state %s", o2.State)
	}
}
