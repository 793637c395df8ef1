package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

func putAndAttach(t *testing.T, s *Store, content string, sessions ...string) ArtifactRef {
	t.Helper()
	ctx := context.Background()
	ref, err := s.PutArtifact(ctx, strings.NewReader(content), "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Write(ctx, func(tx *Tx) error {
		for _, ses := range sessions {
			if err := tx.AttachArtifact(ses, ref); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func TestArtifactsAreContentAddressedAndPrivate(t *testing.T) {
	s, ws := openTemp(t)
	ses, _ := seedTask(t, s)
	a := putAndAttach(t, s, "diff --git a b", ses)
	b := putAndAttach(t, s, "diff --git a b", ses)
	if a.SHA256 != b.SHA256 || a.Size != 14 {
		t.Fatalf("refs %+v %+v", a, b)
	}
	if m := fileMode(t, ws.ArtifactPath(a.SHA256)); m != 0o600 {
		t.Fatalf("artifact mode %o", m)
	}
	if tmp, _ := filepath.Glob(filepath.Join(ws.Artifacts(), ".tmp-*")); len(tmp) != 0 {
		t.Fatalf("temp files left: %v", tmp)
	}
	f, err := s.OpenArtifact(a.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Remove(ws.ArtifactPath(a.SHA256))
	err = s.Write(context.Background(), func(tx *Tx) error { return tx.AttachArtifact(ses, a) })
	wantCode(t, err, core.CodeStorageError)
}

func TestPurgeKeepsSharedArtifactsAndIsIdempotent(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	gone, _ := seedTask(t, s)
	kept, keptTask := seedTask(t, s)
	own := putAndAttach(t, s, "only mine", gone)
	shared := putAndAttach(t, s, "ours", gone, kept)
	// Workspace files, .fluzo and credentials are outside the purge's reach.
	os.WriteFile(filepath.Join(ws.Root, ".fluzo"), []byte("schema_version = 1\n"), 0o644)

	plan, err := s.PlanPurge(ctx, PurgeSelect{Session: gone})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Artifacts) != 1 || plan.Artifacts[0] != own.SHA256 || len(plan.Shared) != 1 || plan.Shared[0] != shared.SHA256 {
		t.Fatalf("plan = %+v", plan)
	}
	if plan.Repository != ws.Root || plan.Drive != ws.Drive() {
		t.Fatalf("plan does not name the repository: %+v", plan)
	}
	if _, err := s.GetSession(ctx, gone); err != nil {
		t.Fatal("the dry-run plan deleted the session")
	}
	res, err := s.Purge(ctx, PurgeSelect{Session: gone})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 1 || res.FilesRemoved != 1 {
		t.Fatalf("purge = %+v", res)
	}
	if exists(ws.ArtifactPath(own.SHA256)) || !exists(ws.ArtifactPath(shared.SHA256)) {
		t.Fatal("purge removed the wrong artifact files")
	}
	if _, err := s.GetSession(ctx, gone); core.CodeOf(err) != core.CodeNotFound {
		t.Fatalf("purged session still there: %v", err)
	}
	if evs := allEvents(t, s.Queries, EventQuery{Session: gone}); len(evs) != 0 {
		t.Fatalf("purged session kept %d events", len(evs))
	}
	if _, err := s.GetTask(ctx, keptTask); err != nil {
		t.Fatalf("other session damaged: %v", err)
	}
	again, err := s.Purge(ctx, PurgeSelect{Session: gone})
	if err != nil || len(again.Sessions) != 0 || len(again.Plan.Missing) != 1 {
		t.Fatalf("second purge = %+v, %v", again, err)
	}
	if !exists(filepath.Join(ws.Root, ".fluzo")) {
		t.Fatal("purge touched .fluzo")
	}
	all, err := s.Purge(ctx, PurgeSelect{All: true})
	if err != nil || len(all.Sessions) != 1 || exists(ws.ArtifactPath(shared.SHA256)) {
		t.Fatalf("purge --all = %+v, %v", all, err)
	}
}

func TestPurgeFinishesAnInterruptedRun(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	ses, _ := seedTask(t, s)
	ref := putAndAttach(t, s, "left behind", ses)
	// Simulate a purge that committed its records but died before removing
	// files: the tombstone is durable, the file still exists.
	err := s.Write(ctx, func(tx *Tx) error {
		if _, err := tx.tx.Exec("INSERT INTO artifact_tombstones (sha256) VALUES (?)", ref.SHA256); err != nil {
			return err
		}
		if _, err := tx.tx.Exec("DELETE FROM sessions WHERE id = ?", ses); err != nil {
			return err
		}
		_, err := tx.tx.Exec("DELETE FROM artifacts WHERE sha256 = ?", ref.SHA256)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := s.PlanPurge(ctx, PurgeSelect{All: true})
	if plan.PendingFiles != 1 || !plan.Deletes() {
		t.Fatalf("plan = %+v", plan)
	}
	res, err := s.Purge(ctx, PurgeSelect{All: true})
	if err != nil || res.FilesRemoved != 1 || exists(ws.ArtifactPath(ref.SHA256)) {
		t.Fatalf("purge = %+v, %v", res, err)
	}
}

func TestPurgeRefusesSessionsOfAnActiveOwner(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	active, _ := seedTask(t, s) // pending task: unfinished work
	done, doneTask := seedTask(t, s)
	s.Write(ctx, func(tx *Tx) error {
		_, _, err := tx.SetTaskState(doneTask, core.TaskCancelled, "user")
		return err
	})
	fd, err := unix.Open(ws.OwnerLockPath(), unix.O_RDWR|unix.O_CREAT, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if on, err := OwnerActive(ws); err != nil || !on {
		t.Fatalf("OwnerActive = %v, %v", on, err)
	}
	res, err := s.Purge(ctx, PurgeSelect{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 1 || res.Sessions[0] != done || len(res.Plan.Refused()) != 1 || res.Plan.Refused()[0].ID != active {
		t.Fatalf("purge with an active owner = %+v", res)
	}
	if _, err := s.GetSession(ctx, active); err != nil {
		t.Fatalf("active session deleted: %v", err)
	}
	unix.Flock(fd, unix.LOCK_UN)
	if on, _ := OwnerActive(ws); on {
		t.Fatal("owner still reported active after unlock")
	}
}

func TestQuotaAdmission(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	st, err := s.Admit(ctx, DefaultQuota)
	if err != nil && core.AsError(err).Details["reason"] != ReasonLowDiskSpace {
		t.Fatal(err)
	}
	if st.UsedBytes <= 0 || st.FreeBytes <= 0 {
		t.Fatalf("status = %+v", st)
	}
	tight := Quota{SessionMaxBytes: st.UsedBytes, WarnRatio: 0.8}
	_, err = s.Admit(ctx, tight)
	wantCode(t, err, core.CodeStorageError)
	if core.AsError(err).Details["reason"] != ReasonQuotaExceeded {
		t.Fatalf("reason = %v", core.AsError(err).Details)
	}
	warn := Quota{SessionMaxBytes: st.UsedBytes * 10 / 9, WarnRatio: 0.8}
	if st, err := s.Admit(ctx, warn); err != nil || !st.Warning {
		t.Fatalf("80%% warning: %+v, %v", st, err)
	}
	_, err = s.Admit(ctx, Quota{MinFreeBytes: 1 << 62})
	if core.AsError(err).Details["reason"] != ReasonLowDiskSpace {
		t.Fatalf("low disk: %v", err)
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"4096": 4096, "256MiB": 256 << 20, "1GiB": 1 << 30, "10kB": 10000, "1.5KiB": 1536} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Fatalf("ParseBytes(%q) = %d, %v", in, got, err)
		}
	}
	_, err := ParseBytes("lots")
	wantCode(t, err, core.CodeUsage)
}

// TestPurgeNeverFollowsArtifactSymlinks: a shard directory replaced by a
// link into user data is not traversed; the purge reports the file as
// not removed and leaves the user's file alone.
func TestPurgeNeverFollowsArtifactSymlinks(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	ses, _ := seedTask(t, s)
	ref := putAndAttach(t, s, "to be purged", ses)
	shard := filepath.Dir(ws.ArtifactPath(ref.SHA256))
	user := t.TempDir()
	victim := filepath.Join(user, ref.SHA256)
	os.WriteFile(victim, []byte("user data"), 0o644)
	os.RemoveAll(shard)
	if err := os.Symlink(user, shard); err != nil {
		t.Fatal(err)
	}
	res, err := s.Purge(ctx, PurgeSelect{Session: ses})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 1 || res.FilesRemoved != 0 {
		t.Fatalf("purge through a symlink = %+v", res)
	}
	if _, err := s.OpenArtifact(ref.SHA256); core.CodeOf(err) != core.CodeStorageError {
		t.Fatalf("OpenArtifact through a symlinked shard = %v", err)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "user data" {
		t.Fatalf("user file touched: %q, %v", b, err)
	}
}
