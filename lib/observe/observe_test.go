package observe

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// history is a small task journal written through the real store: one
// attempt interrupted with an unknown and a denied operation, a request
// with reported usage and one without, and one Laya observation. A second
// task in the same session must not leak into the first one's timeline.
type history struct {
	s           *store.Store
	ws          store.Workspace
	task, other core.Task
	attempt     core.Attempt
	obs         string
}

func newHistory(t *testing.T) history {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
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
	h := history{s: s, ws: ws}
	err = s.Write(ctx, func(tx *store.Tx) error {
		sess := core.Session{Title: "t"}
		if _, err := tx.CreateSession(&sess); err != nil {
			return err
		}
		h.task = core.Task{SessionID: sess.ID, Request: "fix it"}
		h.other = core.Task{SessionID: sess.ID, Request: "other"}
		for _, tk := range []*core.Task{&h.task, &h.other} {
			if _, err := tx.CreateTask(tk); err != nil {
				return err
			}
		}
		for _, st := range []core.TaskState{core.TaskReady, core.TaskRunning} {
			if _, _, err := tx.SetTaskState(h.task.ID, st, ""); err != nil {
				return err
			}
		}
		h.attempt = core.Attempt{TaskID: h.task.ID, TraceID: "0af7651916cd43dd8448eb211c80319c"}
		if _, err := tx.StartAttempt(&h.attempt); err != nil {
			return err
		}
		in, out := int64(100), int64(7)
		for _, u := range []*store.Usage{{InputTokens: &in, OutputTokens: &out, Source: "provider"}, {Source: "provider"}} {
			p := core.ProviderRequest{AttemptID: h.attempt.ID, Purpose: "turn", Model: "m"}
			if _, err := tx.CreateProviderRequest(&p); err != nil {
				return err
			}
			if _, _, err := tx.SetProviderRequestState(p.ID, core.SlotDispatched, nil); err != nil {
				return err
			}
			if _, _, err := tx.SetProviderRequestState(p.ID, core.SlotCompleted, u); err != nil {
				return err
			}
		}
		for _, path := range [][]core.OperationState{
			{core.OpAuthorized, core.OpIntentCommitted, core.OpDispatched, core.OpUnknown},
			{core.OpDenied},
		} {
			o := core.Operation{AttemptID: h.attempt.ID, Tool: "run_command", Args: []byte(`{}`)}
			if _, err := tx.CreateOperation(&o); err != nil {
				return err
			}
			for _, st := range path {
				u := store.OperationUpdate{}
				if st == core.OpDenied {
					u = store.OperationUpdate{Decision: "deny", Rule: "protected_path"}
				}
				if _, _, err := tx.SetOperationState(o.ID, st, u); err != nil {
					return err
				}
			}
		}
		o := store.Observation{SessionID: sess.ID, TaskID: h.task.ID, AttemptID: h.attempt.ID, Kind: "next_action",
			Data: []byte(`{"answers":{"next_action":"retry"},"latency_ms":5,"action_taken":"continue","snapshot":"RAW"}`)}
		if _, err := tx.AddObservation(&o); err != nil {
			return err
		}
		h.obs = o.ID
		if _, _, err := tx.EndAttempt(h.attempt.ID, core.AttemptInterrupted, "restart"); err != nil {
			return err
		}
		_, _, err := tx.SetTaskState(h.other.ID, core.TaskReady, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestDiagnoseReturnsTypedFailuresAndUnknownUsage(t *testing.T) {
	h := newHistory(t)
	d, err := Diagnose(context.Background(), h.s, h.task.ID, DiagnoseOptions{Spans: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Attempts) != 1 || len(d.Attempts[0].Operations) != 2 || d.Operations.Unknown != 1 || d.Operations.ByState["denied"] != 1 {
		t.Fatalf("attempts %+v operations %+v", d.Attempts, d.Operations)
	}
	want := map[string]bool{FailedAttempt + " interrupted": true, FailedOperation + " unknown": true, FailedOperation + " denied": true}
	for _, f := range d.Failures {
		if !want[f.Subject+" "+f.State] {
			t.Errorf("unexpected failure %+v", f)
		}
		delete(want, f.Subject+" "+f.State)
	}
	if len(want) != 0 {
		t.Fatalf("missing failures %v in %+v", want, d.Failures)
	}
	if d.Usage.Requests != 2 || d.Usage.UnknownRequests != 1 || d.Usage.Complete || d.Usage.InputTokens != 100 || d.Usage.AllUnknown() {
		t.Fatalf("usage %+v", d.Usage)
	}
	// No archive: no model calls, so the cost is unknown (nil), not zero.
	if d.Telemetry.Cost.Amount != nil || d.Telemetry.Cost.Complete || d.Spans == nil || len(d.Spans) != 0 {
		t.Fatalf("telemetry %+v spans %v", d.Telemetry, d.Spans)
	}
	if len(d.Observations) != 1 || strings.Contains(string(d.Observations[0].Data), "RAW") {
		t.Fatalf("observations %+v", d.Observations)
	}
	denied := Failure{Subject: FailedOperation, ID: d.Attempts[0].Operations[1].ID, Tool: "run_command", State: "denied", Reason: "protected_path"}
	if !slices.Contains(d.Failures, denied) || denied.String() != "operation "+denied.ID+" run_command denied (protected_path)" {
		t.Fatalf("failures %+v", d.Failures)
	}
	b, _ := json.Marshal(d)
	if !strings.Contains(string(b), `"failures":[{"subject":"attempt",`) {
		t.Fatalf("failures are not typed on the wire: %s", b)
	}
	if _, err := Diagnose(context.Background(), h.s, "tsk_nosuch", DiagnoseOptions{}); core.CodeOf(err) != core.CodeNotFound {
		t.Fatalf("missing task: %v", err)
	}
}

func TestReplayYieldsOnlyTheTasksStepsInOrder(t *testing.T) {
	h := newHistory(t)
	var got []Entry
	err := Replay(context.Background(), h.s, h.task, func(e Entry) error { got = append(got, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Event != core.EvTaskCreated || got[0].Actor != "user" {
		t.Fatalf("first entry %+v", got)
	}
	var last int64
	for _, e := range got {
		if e.Kind != EntryStep || e.Seq <= last {
			t.Fatalf("entry %+v after seq %d", e, last)
		}
		last = e.Seq
		if e.Action == "create task" && e.Seq != got[0].Seq {
			t.Fatalf("the other task's creation leaked into the timeline: %+v", e)
		}
	}
	// An event lost behind the runtime's back, even another task's, is
	// reported as a gap in this task's timeline, never hidden.
	ctx := context.Background()
	if _, err := h.s.DB().ExecContext(ctx, "DELETE FROM events WHERE pos = (SELECT pos FROM events WHERE task_id = ? AND type = ?)", h.other.ID, core.EvTaskCreated); err != nil {
		t.Fatal(err)
	}
	var gaps []Entry
	if err := Replay(ctx, h.s, h.task, func(e Entry) error {
		if e.Kind == EntryGap {
			gaps = append(gaps, e)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 1 || gaps[0].Actor != "store" || !strings.Contains(gaps[0].Action, "missing") {
		t.Fatalf("gaps %+v", gaps)
	}
	stop := core.Errorf(core.CodeCancelled, "stop")
	n := 0
	if err := Replay(context.Background(), h.s, h.task, func(Entry) error { n++; return stop }); err != stop || n != 1 {
		t.Fatalf("a callback error must end the replay: %v after %d", err, n)
	}
}

func TestLabelsAreValidatedAppendedAndTheLatestWins(t *testing.T) {
	h := newHistory(t)
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	bad := LabelInput{Observation: h.obs, Label: "x", Annotator: "a\nb", Source: "review"}
	err := bad.Validate()
	if core.CodeOf(err) != core.CodeUsage || core.AsError(err).Details["field"] != "annotator" {
		t.Fatalf("validation %v", err)
	}
	if _, err := AddLabel(ctx, h.s, LabelInput{Observation: "obs_nosuch", Label: "x", Annotator: "a", Source: "review"}, now); core.CodeOf(err) != core.CodeNotFound {
		t.Fatalf("unknown observation: %v", err)
	}
	for _, l := range []string{"continue", "retry"} {
		if _, err := AddLabel(ctx, h.s, LabelInput{Observation: h.obs, Label: l, Annotator: "ana", Source: "review", LabelVersion: 1}, now); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := EvalRecords(ctx, h.s, EvalFilter{OnlyLabeled: true})
	if err != nil || len(recs) != 1 || recs[0].Label == nil || recs[0].Label.Label != "retry" || recs[0].TaskOutcome != "running" {
		t.Fatalf("records %+v, %v", recs, err)
	}
	if _, ok := recs[0].Observed["snapshot"]; ok {
		t.Fatal("content exported")
	}
	rep := Report(recs, "next_action")
	if rep.Accuracy.Samples != 1 || rep.Accuracy.Matches != 1 || rep.Agreement.Samples != 1 || rep.Agreement.Matches != 0 {
		t.Fatalf("report %+v", rep)
	}
	hd := NewDataset(recs, EvalFilter{OnlyLabeled: true}, "", now)
	if hd.Filter != "labeled" || hd.Labeled != 1 || hd.Unlabeled != 0 {
		t.Fatalf("header %+v", hd)
	}
}

// The label log follows the .fluzodrive rules: a symlinked eval directory
// is refused with a storage error, for writing and for reading.
func TestLabelsRefuseASymlinkedEvalDirectory(t *testing.T) {
	h := newHistory(t)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(h.ws.Drive(), "eval")); err != nil {
		t.Fatal(err)
	}
	_, err := AddLabel(context.Background(), h.s, LabelInput{Observation: h.obs, Label: "x", Annotator: "a", Source: "review"}, time.Now())
	if core.CodeOf(err) != core.CodeStorageError {
		t.Fatalf("AddLabel through a link: %v", err)
	}
	if _, err := EvalRecords(context.Background(), h.s, EvalFilter{}); core.CodeOf(err) != core.CodeStorageError {
		t.Fatalf("EvalRecords through a link: %v", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("written through the link: %v", entries)
	}
}
