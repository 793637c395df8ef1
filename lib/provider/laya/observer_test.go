package laya

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
)

type obsLog struct {
	mu  sync.Mutex
	obs []Observation
}

func (l *obsLog) add(o Observation) { l.mu.Lock(); l.obs = append(l.obs, o); l.mu.Unlock() }

func (l *obsLog) count(pred func(Observation) bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, o := range l.obs {
		if pred(o) {
			n++
		}
	}
	return n
}

func TestObserverIsNeverAwaited(t *testing.T) {
	gate := make(chan struct{})
	log := &obsLog{}
	o := &Observer{Ask: func(ctx context.Context, q Query) (json.RawMessage, error) {
		<-gate
		return json.RawMessage(`{"next_action":"continue"}`), nil
	}, Record: log.add}
	o.Observe("loop_detected", map[string]int{"cycles": 3}, []Question{{Type: QuestionNextAction, Options: NextActions}}, "continue")
	// Observe returned while the question is still blocked.
	if log.count(func(Observation) bool { return true }) != 0 {
		t.Fatal("recorded before the answer")
	}
	close(gate)
	o.Wait()
	if log.count(func(o Observation) bool {
		return o.Answers != nil && o.ActionTaken == "continue" && o.Fingerprint != ""
	}) != 1 {
		t.Fatalf("observation not recorded: %+v", log.obs)
	}
}

func TestObserverLimitsPausesAndSkips(t *testing.T) {
	log := &obsLog{}
	calls := 0
	o := &Observer{Max: 4, Record: log.add, Ask: func(ctx context.Context, q Query) (json.RawMessage, error) {
		calls++
		return json.RawMessage(`{}`), nil
	}}
	for i := 0; i < 6; i++ {
		o.Observe("p", i, nil, "continue")
		o.Wait()
	}
	if calls != 4 || log.count(func(o Observation) bool { return o.Skipped == SkipLimit }) != 2 {
		t.Fatalf("limit: %d calls", calls)
	}
	o.NewTask()
	o.Observe("p", "next task", nil, "continue")
	o.Wait()
	if calls != 5 {
		t.Fatal("the per-task limit was not reset for the next task")
	}

	log2 := &obsLog{}
	failing := &Observer{Record: log2.add, Ask: func(ctx context.Context, q Query) (json.RawMessage, error) {
		return json.RawMessage(`not json`), nil
	}}
	for i := 0; i < 5; i++ {
		failing.Observe("p", i, nil, "continue")
		failing.Wait()
	}
	failing.NewTask()
	if !failing.Paused() || log2.count(func(o Observation) bool { return o.Failure != "" }) != 3 || log2.count(func(o Observation) bool { return o.Skipped == SkipPaused }) != 2 {
		t.Fatalf("pause after 3 failures: %+v", log2.obs)
	}

	log3 := &obsLog{}
	busy := &Observer{Record: log3.add, Admit: func() (func(), bool) { return nil, false }, Ask: func(context.Context, Query) (json.RawMessage, error) {
		return nil, errors.New("must not be called")
	}}
	busy.Observe("p", 1, nil, "continue")
	busy.Wait()
	if log3.count(func(o Observation) bool { return o.Skipped == SkipCapacity }) != 1 {
		t.Fatal("no shadow slot did not skip")
	}
}

func TestObserverTimeoutIsAFailure(t *testing.T) {
	log := &obsLog{}
	o := &Observer{Timeout: 1, Record: log.add, Ask: func(ctx context.Context, q Query) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	o.Observe("p", 1, nil, "continue")
	o.Wait()
	if log.count(func(o Observation) bool { return o.Failure == "timeout" }) != 1 {
		t.Fatalf("%+v", log.obs)
	}
}

// The snapshot is what the Laya model reads: code in the state reaches it
// as written, not as \u003c escapes, also when the snapshot is truncated.
func TestObserverSnapshotKeepsCodeVerbatim(t *testing.T) {
	code := "for i := 0; i < n && ok; i++ { p = &x }"
	for name, state := range map[string]any{
		"whole":     map[string]string{"code": code},
		"truncated": map[string]string{"code": code + strings.Repeat(" ", maxObservationSnapshot)},
	} {
		var got string
		o := &Observer{Record: func(Observation) {}, Ask: func(ctx context.Context, q Query) (json.RawMessage, error) {
			got = string(q.Snapshot)
			return json.RawMessage(`{}`), nil
		}}
		o.Observe("task_start", state, nil, "continue")
		o.Wait()
		if !strings.Contains(got, code) || strings.Contains(got, `\u003c`) || strings.Contains(got, `\u0026`) {
			t.Errorf("%s: the snapshot sent to Laya is %.120q", name, got)
		}
	}
}
