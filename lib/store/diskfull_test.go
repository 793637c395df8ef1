package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// TestDiskFullMidWriteRecovers runs a store on a 4 MiB tmpfs (root only),
// fills the filesystem while the store is open, and writes until a commit
// fails: the failure is storage_error with the disk-full hint, every
// commit before it survives, and after the filler is removed the store
// reopens (no leftover WAL pinning the space), passes integrity_check and
// takes new writes.
func TestDiskFullMidWriteRecovers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root; run the tests as root to cover a full disk")
	}
	dir := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=4m"); err != nil {
		t.Fatalf("mount tmpfs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	git(t, dir, "init", "-q")
	ctx := context.Background()
	ws, err := ResolveWorkspace(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddGitExclude(ctx, ws); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	// Leave 512 KiB free so some commits land before one runs out.
	gap, filler := filepath.Join(dir, "gap"), filepath.Join(dir, "filler")
	if err := os.WriteFile(gap, make([]byte, 512<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	fill(t, filler)
	os.Remove(gap)
	payload, _ := json.Marshal(map[string]string{"text": strings.Repeat("y", 2000)})
	var committed int
	var writeErr error
	for i := 0; i < 10000 && writeErr == nil; i++ {
		_, writeErr = s.AppendBatch(ctx, []core.Event{{Type: core.EvTaskCreated, Data: payload}, {Type: core.EvTaskCreated, Data: payload}})
		if writeErr == nil {
			committed += 2
		}
	}
	if writeErr == nil || committed == 0 {
		t.Fatalf("want some commits and then a full disk: %d committed, error %v", committed, writeErr)
	}
	wantCode(t, writeErr, core.CodeStorageError)
	if hint := core.AsError(writeErr).Hint; !strings.HasPrefix(hint, "the disk is full") || !strings.Contains(hint, "the store is intact") {
		t.Fatalf("hint = %q (error %v)", hint, writeErr)
	}
	s.Close()
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, ws)
	if err != nil {
		t.Fatalf("reopen after freeing space: %v", err)
	}
	defer s.Close()
	for _, f := range s.checkDatabase(ctx) {
		if f.Status == StatusFail {
			t.Fatalf("after the full disk: %+v", f)
		}
	}
	page, err := s.Events(ctx, EventQuery{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(page.Events); got != min(committed, 1000) {
		t.Fatalf("%d events survive, %d were committed", got, committed)
	}
	if _, err := s.Append(ctx, core.Event{Type: core.EvTaskCreated, Data: payload}); err != nil {
		t.Fatalf("write after freeing space: %v", err)
	}
	t.Logf("%d events committed before the disk filled", committed)
}

// fill writes path until the filesystem is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}
