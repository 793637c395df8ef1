package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckOwnerLock(t *testing.T) {
	ws := excludedWorkspace(t)
	lock := ws.OwnerLockPath()
	if f := checkOwnerLock(ws); f.Status != StatusOK {
		t.Fatalf("no lock yet: %+v", f)
	}
	writeFile(t, lock, nil)
	if f := checkOwnerLock(ws); f.Status != StatusOK {
		t.Fatalf("own regular lock: %+v", f)
	}
	os.Remove(lock)
	target := filepath.Join(t.TempDir(), "elsewhere")
	writeFile(t, target, nil)
	if err := os.Symlink(target, lock); err != nil {
		t.Fatal(err)
	}
	if f := checkOwnerLock(ws); f.Status != StatusFail || !strings.Contains(f.Message, "symbolic link") {
		t.Fatalf("symlinked lock: %+v", f)
	}
	os.Remove(lock)
	writeFile(t, lock, nil)
	os.Chmod(lock, 0o666)
	if f := checkOwnerLock(ws); f.Status != StatusFail || f.Hint != "chmod 600 "+lock {
		t.Fatalf("world-writable lock: %+v", f)
	}
	os.Chmod(lock, FileMode)
	if os.Geteuid() != 0 {
		t.Skip("a lock owned by another uid needs root to create (chown); the other cases ran")
	}
	if err := os.Lchown(lock, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if f := checkOwnerLock(ws); f.Status != StatusFail || !strings.Contains(f.Message, "belongs to uid 4242") {
		t.Fatalf("foreign lock: %+v", f)
	}
	if !Failed(Check(t.Context(), ws)) {
		t.Fatal("Check does not fail on a foreign owner lock")
	}
}
