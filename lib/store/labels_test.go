package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// observe stores one observation in the session and returns its ID.
func observe(t *testing.T, s *Store, session, task string) string {
	t.Helper()
	o := Observation{SessionID: session, TaskID: task, Kind: "shadow"}
	if err := s.Write(context.Background(), func(tx *Tx) error { _, err := tx.AddObservation(&o); return err }); err != nil {
		t.Fatal(err)
	}
	return o.ID
}

func label(t *testing.T, ws Workspace, obs, text string) {
	t.Helper()
	if err := AppendEvalLabel(ws, fmt.Appendf(nil, `{"type":"laya.label","observation":%q,"label":%q}`, obs, text)); err != nil {
		t.Fatal(err)
	}
}

func findingOf(fs []Finding, check string) Finding {
	for _, f := range fs {
		if f.Check == check {
			return f
		}
	}
	return Finding{}
}

func TestEvalLabelsArePrivateAndAppendOnly(t *testing.T) {
	s, ws := openTemp(t)
	ses, task := seedTask(t, s)
	obs := observe(t, s, ses, task)
	label(t, ws, obs, "continue")
	// An interrupted write left half a line: the next record starts afresh.
	f, _ := os.OpenFile(ws.LabelsPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"type":"laya.label","obs`)
	f.Close()
	label(t, ws, obs, "retry")
	lines, err := ReadEvalLabels(ws)
	if err != nil || len(lines) != 3 || !strings.Contains(string(lines[2]), `"retry"`) {
		t.Fatalf("lines %q, %v", lines, err)
	}
	if m := fileMode(t, ws.EvalDirPath()); m != 0o700 {
		t.Fatalf("eval dir mode %o", m)
	}
	if m := fileMode(t, ws.LabelsPath()); m != 0o600 {
		t.Fatalf("labels mode %o", m)
	}
	if f := findingOf(Check(context.Background(), ws), "eval_labels"); f.Status != StatusOK || !strings.Contains(f.Message, "3 eval label(s)") {
		t.Fatalf("check finding %+v", f)
	}
	wantCode(t, AppendEvalLabel(ws, []byte("{\"a\":1}\n{}")), core.CodeInternal)
}

// A symlinked eval directory or label file is refused with a typed
// storage error, and nothing is written through the link.
func TestEvalLabelsRefuseSymlinks(t *testing.T) {
	for _, which := range []string{"dir", "file"} {
		t.Run(which, func(t *testing.T) {
			s, ws := openTemp(t)
			ses, task := seedTask(t, s)
			obs := observe(t, s, ses, task)
			elsewhere := t.TempDir()
			target := filepath.Join(elsewhere, LabelsName)
			os.WriteFile(target, []byte(`{"type":"laya.label","observation":"planted"}`+"\n"), 0o600)
			if which == "dir" {
				if err := os.Symlink(elsewhere, ws.EvalDirPath()); err != nil {
					t.Fatal(err)
				}
			} else {
				os.Mkdir(ws.EvalDirPath(), 0o700)
				if err := os.Symlink(target, ws.LabelsPath()); err != nil {
					t.Fatal(err)
				}
			}
			err := AppendEvalLabel(ws, fmt.Appendf(nil, `{"observation":%q}`, obs))
			wantCode(t, err, core.CodeStorageError)
			if !strings.Contains(err.Error(), "symbolic link") {
				t.Fatalf("error does not name the link: %v", err)
			}
			_, err = ReadEvalLabels(ws)
			wantCode(t, err, core.CodeStorageError)
			if b, _ := os.ReadFile(target); strings.Contains(string(b), obs) {
				t.Fatal("a label was written through the link")
			}
			if f := findingOf(Check(context.Background(), ws), "eval_labels"); f.Status != StatusFail {
				t.Fatalf("check finding %+v, want fail", f)
			}
			if _, err := s.Purge(context.Background(), PurgeSelect{Session: ses}); core.CodeOf(err) != core.CodeStorageError {
				t.Fatalf("purge through a linked label log: %v", err)
			}
			if b, _ := os.ReadFile(target); !strings.Contains(string(b), "planted") {
				t.Fatal("purge rewrote the link's target")
			}
		})
	}
}

func TestCheckFlagsWideLabelModesAndOrphans(t *testing.T) {
	s, ws := openTemp(t)
	label(t, ws, "obs_gone", "x")
	if f := findingOf(Check(context.Background(), ws), "eval_labels"); f.Status != StatusWarn || !strings.Contains(f.Message, "1 of 1") {
		t.Fatalf("orphan finding %+v", f)
	}
	os.Chmod(ws.LabelsPath(), 0o644)
	if f := findingOf(Check(context.Background(), ws), "eval_labels"); f.Status != StatusFail || !strings.Contains(f.Hint, "chmod 600") {
		t.Fatalf("mode finding %+v", f)
	}
	_ = s
}

func TestStatsCountLabelBytes(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	before, err := s.Storage(ctx, DefaultQuota)
	if err != nil || before.LabelBytes != 0 {
		t.Fatalf("before %+v %v", before, err)
	}
	label(t, ws, "obs_x", "continue")
	fi, _ := os.Stat(ws.LabelsPath())
	after, err := s.Storage(ctx, DefaultQuota)
	if err != nil || after.LabelBytes != fi.Size() || after.UsedBytes != after.DatabaseBytes+after.ArtifactBytes+fi.Size() {
		t.Fatalf("after %+v (file %d) %v", after, fi.Size(), err)
	}
}

// Purging a session removes its observations' labels and nothing else;
// a later purge removes labels an interrupted one left.
func TestPurgeRemovesTheLabelsOfPurgedObservations(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	gone, goneTask := seedTask(t, s)
	kept, keptTask := seedTask(t, s)
	goneObs, keptObs := observe(t, s, gone, goneTask), observe(t, s, kept, keptTask)
	label(t, ws, goneObs, "a")
	label(t, ws, keptObs, "b")
	label(t, ws, goneObs, "c")
	f, _ := os.OpenFile(ws.LabelsPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not json, kept\n")
	f.Close()

	plan, err := s.PlanPurge(ctx, PurgeSelect{Session: gone})
	if err != nil || plan.Labels != 2 {
		t.Fatalf("plan labels %d, %v", plan.Labels, err)
	}
	res, err := s.Purge(ctx, PurgeSelect{Session: gone})
	if err != nil || res.LabelsRemoved != 2 {
		t.Fatalf("removed %d, %v", res.LabelsRemoved, err)
	}
	b, _ := os.ReadFile(ws.LabelsPath())
	if strings.Contains(string(b), goneObs) || !strings.Contains(string(b), keptObs) || !strings.Contains(string(b), "not json, kept") {
		t.Fatalf("labels after purge:\n%s", b)
	}
	if m := fileMode(t, ws.LabelsPath()); m != 0o600 {
		t.Fatalf("rewritten labels mode %o", m)
	}
	if left, _ := filepath.Glob(filepath.Join(ws.EvalDirPath(), ".*tmp*")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
	// An orphan left behind (as by a purge interrupted before the rewrite)
	// goes with the next purge, even one that selects nothing present.
	label(t, ws, "obs_orphan", "d")
	res, err = s.Purge(ctx, PurgeSelect{Session: gone})
	if err != nil || res.LabelsRemoved != 1 {
		t.Fatalf("orphan sweep removed %d, %v", res.LabelsRemoved, err)
	}
}

// Labels appended while a purge rewrites the log are never lost: the
// appender re-opens the log when the purge replaced it under its lock.
func TestLabelsAppendedDuringPurgeSurvive(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	kept, task := seedTask(t, s)
	obs := observe(t, s, kept, task)
	var wg sync.WaitGroup
	const n = 40
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			label(t, ws, obs, fmt.Sprint("l", i))
		}()
	}
	for range 10 {
		label(t, ws, "obs_orphan", "x")
		if _, err := s.Purge(ctx, PurgeSelect{Session: "ses_none"}); err != nil {
			t.Error(err)
		}
	}
	wg.Wait()
	lines, err := ReadEvalLabels(ws)
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for _, l := range lines {
		if strings.Contains(string(l), obs) {
			got++
		}
	}
	if got != n {
		t.Fatalf("%d of %d concurrent labels survived", got, n)
	}
}
