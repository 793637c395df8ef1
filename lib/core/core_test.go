package core

import (
	"bytes"
	"errors"
	"sort"
	"testing"
	"time"
)

func TestIDsAreOrderedAndUniqueWhenClockStalls(t *testing.T) {
	fixed := time.Unix(1_800_000_000, 0)
	g := NewIDGen(func() time.Time { return fixed }, bytes.NewReader(make([]byte, 10)))
	seen := map[string]bool{}
	prev := ""
	for i := 0; i < 10000; i++ {
		id := g.New(KindTask)
		if seen[id] {
			t.Fatalf("duplicate id %s at %d", id, i)
		}
		seen[id] = true
		if id <= prev {
			t.Fatalf("id %s not greater than %s", id, prev)
		}
		if !ValidID(id, KindTask) {
			t.Fatalf("invalid id %s", id)
		}
		prev = id
	}
}

func TestIDsSortByTime(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	g := NewIDGen(func() time.Time { now = now.Add(-time.Millisecond); return now }, nil)
	a := g.New(KindEvent) // clock going backwards must still increase
	b := g.New(KindEvent)
	if !(a < b) {
		t.Fatalf("backwards clock produced %s then %s", a, b)
	}
	var ids []string
	t0 := time.Unix(1_700_000_000, 0)
	for i := 0; i < 50; i++ {
		ti := t0.Add(time.Duration(i) * time.Second)
		ids = append(ids, NewIDGen(func() time.Time { return ti }, nil).New(KindSession))
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatal("ids from increasing times are not sorted")
	}
	if IDKind(ids[0]) != KindSession || ValidID(ids[0], KindTask) {
		t.Fatal("kind prefix not respected")
	}
}

func TestTaskTransitions(t *testing.T) {
	legal := [][2]TaskState{{TaskPending, TaskReady}, {TaskReady, TaskRunning}, {TaskRunning, TaskCompleted}, {TaskRunning, TaskStopping}, {TaskStopping, TaskCancelled}, {TaskFailed, TaskReady}}
	for _, p := range legal {
		if err := p[0].Transition(p[1]); err != nil {
			t.Errorf("%s→%s rejected: %v", p[0], p[1], err)
		}
	}
	illegal := [][2]TaskState{{TaskCompleted, TaskRunning}, {TaskCancelled, TaskReady}, {TaskPending, TaskCompleted}, {TaskRunning, "bogus"}}
	for _, p := range illegal {
		err := p[0].Transition(p[1])
		if CodeOf(err) != CodeIllegalTransition {
			t.Errorf("%s→%s allowed (err %v)", p[0], p[1], err)
		}
	}
	if !TaskCompleted.Final() || !TaskFailed.Final() || TaskBlocked.Final() {
		t.Error("Final wrong")
	}
}

func TestOperationNeverGoesBackToDispatch(t *testing.T) {
	if OpUnknown.CanTransition(OpDispatched) || OpUnknown.CanTransition(OpIntentCommitted) {
		t.Fatal("an unknown operation must never be re-dispatched")
	}
	if OpRequested.CanTransition(OpDispatched) {
		t.Fatal("dispatch without committed intent must be illegal")
	}
	if !OpDispatched.Unresolved() || OpSucceeded.Unresolved() {
		t.Fatal("Unresolved wrong")
	}
}

func TestSlotAndGrantMachines(t *testing.T) {
	if !SlotUncertain.Occupied() || SlotCompleted.Occupied() {
		t.Fatal("uncertain slots must stay occupied")
	}
	if SlotCompleted.CanTransition(SlotDispatched) || !SlotReserved.CanTransition(SlotCancelledBeforeDispatch) {
		t.Fatal("slot machine wrong")
	}
	if GrantConsumed.CanTransition(GrantConsumed) || !GrantIssued.CanTransition(GrantRevoked) {
		t.Fatal("grant machine wrong")
	}
	for _, s := range []AttemptState{AttemptCompleted, AttemptFailed, AttemptCancelled, AttemptInterrupted} {
		if !s.Terminal() || AttemptRunning.Terminal() {
			t.Fatal("attempt terminal states wrong")
		}
	}
}

func TestExitCodes(t *testing.T) {
	cases := map[Code]int{"": 0, "completed": 0, CodeUsage: 2, CodeInvalidConfiguration: 3, CodePermissionRequired: 4,
		CodeCapacityWaitTimeout: 7, CodeUnknownOutcome: 9, CodeWorkspaceBusy: 11, CodeStorageError: 13, "whatever": 1}
	for c, want := range cases {
		if got := ExitFor(c); got != want {
			t.Errorf("ExitFor(%q)=%d want %d", c, got, want)
		}
	}
	if len(ExitTable) != 14 {
		t.Fatalf("exit table has %d rows", len(ExitTable))
	}
	for i, r := range ExitTable {
		if r.Code != i {
			t.Fatalf("exit table out of order at %d", i)
		}
	}
}

func TestTypedErrors(t *testing.T) {
	base := errors.New("disk on fire")
	e := Wrap(base, CodeStorageError, "the store could not be opened").WithHint("check permissions").With("path", "/x")
	var wrapped error = e
	if !errors.Is(wrapped, base) || CodeOf(wrapped) != CodeStorageError || ExitForError(wrapped) != 13 {
		t.Fatal("wrap lost information")
	}
	if AsError(base).Code != CodeFailed || ExitForError(nil) != 0 {
		t.Fatal("untyped errors must map to failed")
	}
}

func TestDecodeStrictRejectsUnknownFields(t *testing.T) {
	var c Command
	if err := DecodeStrict([]byte(`{"v":1,"id":"a","cmd":"x"}`), &c); err != nil || c.Cmd != "x" {
		t.Fatalf("valid command rejected: %v", err)
	}
	if err := DecodeStrict([]byte(`{"v":1,"id":"a","cmd":"x","extra":1}`), &c); CodeOf(err) != CodeInvalidRequest {
		t.Fatalf("unknown field accepted: %v", err)
	}
	if err := DecodeStrict([]byte(`{"v":1} {"v":2}`), &c); CodeOf(err) != CodeInvalidRequest {
		t.Fatalf("trailing data accepted: %v", err)
	}
}

func TestMatchType(t *testing.T) {
	if !MatchType("task.*", "task.created") || MatchType("task.*", "operation.intent") || !MatchType("a,operation.intent", "operation.intent") || !MatchType("", "x") {
		t.Fatal("MatchType wrong")
	}
}
