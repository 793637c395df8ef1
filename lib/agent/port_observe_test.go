package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/observe"
	"github.com/josecorral/fluzo/lib/store"
)

// seedInterruptedTask writes one task whose only attempt was interrupted
// and returns the task's id.
func seedInterruptedTask(t *testing.T, s *store.Store) string {
	t.Helper()
	var id string
	err := s.Write(context.Background(), func(tx *store.Tx) error {
		sess := core.Session{Title: "t"}
		if _, err := tx.CreateSession(&sess); err != nil {
			return err
		}
		task := core.Task{SessionID: sess.ID, Request: "fix it"}
		if _, err := tx.CreateTask(&task); err != nil {
			return err
		}
		id = task.ID
		for _, st := range []core.TaskState{core.TaskReady, core.TaskRunning} {
			if _, _, err := tx.SetTaskState(task.ID, st, ""); err != nil {
				return err
			}
		}
		at := core.Attempt{TaskID: task.ID, TraceID: "0af7651916cd43dd8448eb211c80319c"}
		if _, err := tx.StartAttempt(&at); err != nil {
			return err
		}
		_, _, err := tx.EndAttempt(at.ID, core.AttemptInterrupted, "restart")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestPortDiagnoseAndReplayRejectTyped(t *testing.T) {
	ans, _ := portRecords(t,
		`{"v":1,"id":"n1","cmd":"diagnose"}`,
		`{"v":1,"id":"n2","cmd":"diagnose","task":"tsk_NONE"}`,
		`{"v":1,"id":"n3","cmd":"replay"}`,
		`{"v":1,"id":"n4","cmd":"replay","task":"tsk_NONE"}`,
		`{"v":1,"id":"n5","cmd":"replay","task":"tsk_NONE","limit":-1}`,
		`{"v":1,"id":"n6","cmd":"diagnose","task":"tsk_1","extra":1}`,
	)
	for rid, want := range map[string]string{"n1": "invalid_request", "n2": "not_found", "n3": "invalid_request",
		"n4": "not_found", "n5": "invalid_request", "n6": "invalid_request"} {
		if got := errCode(ans[rid]); got != want {
			t.Errorf("%s: code %q, want %q (%v)", rid, got, want, ans[rid])
		}
	}
	for _, rid := range []string{"n1", "n3"} {
		e, _ := ans[rid]["error"].(map[string]any)
		details, _ := e["details"].(map[string]any)
		if details["field"] != "task" {
			t.Errorf("%s: the error names field %v, want task (%v)", rid, details["field"], e)
		}
	}
}

// The port answers the record fluzo-observe diag --json prints (built by
// lib/observe from the same store) and pages the replay timeline without
// losing or repeating an entry.
func TestPortDiagnoseAndReplayAnswerFromLibObserve(t *testing.T) {
	var want observe.DiagRecord
	var timeline []observe.Entry
	var id string
	ans, _ := portRecordsSeeded(t, func(s *store.Store) []string {
		ctx := context.Background()
		id = seedInterruptedTask(t, s)
		d, err := observe.Diagnose(ctx, s, id, observe.DiagnoseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want = observe.NewDiagRecord(&d)
		task, _ := s.GetTask(ctx, id)
		observe.Replay(ctx, s, task, func(e observe.Entry) error { timeline = append(timeline, e); return nil })
		return []string{
			`{"v":1,"id":"d","cmd":"diagnose","task":"` + id + `"}`,
			`{"v":1,"id":"p1","cmd":"replay","task":"` + id + `","limit":2}`,
			`{"v":1,"id":"p2","cmd":"replay","task":"` + id + `","limit":2,"after":` + jsonOf(t, seqAt(timeline, 1)) + `}`,
			`{"v":1,"id":"all","cmd":"replay","task":"` + id + `"}`,
		}
	})
	var got struct {
		Diagnosis observe.DiagRecord `json:"diagnosis"`
	}
	decodeInto(t, ans["d"]["data"], &got)
	if got.Diagnosis.Type != observe.DiagRecordType || got.Diagnosis.Task.ID != id {
		t.Fatalf("diagnose answer: %v", ans["d"])
	}
	if a, b := jsonOf(t, got.Diagnosis), jsonOf(t, want); a != b {
		t.Fatalf("diagnose differs from the observe.diag record:\nport %s\nlib  %s", a, b)
	}
	if len(got.Diagnosis.Failures) == 0 {
		t.Fatalf("an interrupted attempt is a failure: %+v", got.Diagnosis)
	}
	if len(timeline) < 4 {
		t.Fatalf("seeded timeline too short: %+v", timeline)
	}
	type page struct {
		Entries []observe.Entry `json:"entries"`
		Next    int64           `json:"next"`
		More    bool            `json:"more"`
	}
	var p1, p2, all page
	decodeInto(t, ans["p1"]["data"], &p1)
	decodeInto(t, ans["p2"]["data"], &p2)
	decodeInto(t, ans["all"]["data"], &all)
	if len(p1.Entries) != 2 || !p1.More || p1.Next != timeline[1].Seq {
		t.Fatalf("first page of 2: %+v", p1)
	}
	if len(p2.Entries) != 2 || p2.Entries[0].Seq != timeline[2].Seq {
		t.Fatalf("second page starts after the first: %+v", p2)
	}
	if all.More || !reflect.DeepEqual(jsonOf(t, all.Entries), jsonOf(t, timeline)) {
		t.Fatalf("default page is the whole timeline:\nport %+v\nlib  %+v", all, timeline)
	}
}

func seqAt(es []observe.Entry, i int) int64 {
	if i < len(es) {
		return es[i].Seq
	}
	return 0
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decodeInto(t *testing.T, v any, into any) {
	t.Helper()
	if err := json.Unmarshal([]byte(jsonOf(t, v)), into); err != nil {
		t.Fatal(err)
	}
}
