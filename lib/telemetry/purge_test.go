package telemetry

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

func TestPurgeRefusesWhileWriterActiveThenDryRunAndYes(t *testing.T) {
	rt, dir := startArchive(t, Options{})
	drive := filepath.Dir(dir)
	_, s := rt.StartToolCall(context.Background(), "read_file", "op")
	s.End(OutcomeOK, nil)
	rt.Flush(context.Background())
	if _, err := Purge(drive, true); core.CodeOf(err) != core.CodeWorkspaceBusy {
		t.Fatalf("purge during a live writer: %v, want workspace_busy", err)
	}
	rt.Shutdown(context.Background())

	plan, err := Purge(drive, true)
	if err != nil || len(plan.Files) < 2 || plan.Removed != 0 || plan.Bytes == 0 {
		t.Fatalf("dry run = %+v, %v", plan, err)
	}
	if segs, _ := ListSegments(dir); len(segs) == 0 {
		t.Fatal("dry run removed segments")
	}
	plan, err = Purge(drive, false)
	if err != nil || plan.Removed != len(plan.Files) || plan.Remote != RemoteNotice {
		t.Fatalf("purge = %+v, %v", plan, err)
	}
	if segs, _ := ListSegments(dir); len(segs) != 0 {
		t.Fatalf("segments left: %v", segs)
	}
	// A new writer can start after a purge.
	rt2, err := Start(context.Background(), Options{DriveDir: drive})
	if err != nil {
		t.Fatal(err)
	}
	rt2.Shutdown(context.Background())
}

func TestLiveWriterRefreshesHealthSnapshot(t *testing.T) {
	rt, dir := startArchive(t, Options{MetricInterval: 10 * time.Millisecond})
	defer rt.Shutdown(context.Background())
	_, s := rt.StartToolCall(context.Background(), "read_file", "op")
	s.End(OutcomeOK, nil)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if h, err := ReadHealthSnapshot(dir); err == nil && h.PID == os.Getpid() && len(h.Sinks) == 3 {
			return
		}
	}
	t.Fatal("no health snapshot while the writer runs")
}
