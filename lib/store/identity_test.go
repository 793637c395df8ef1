package store

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCopiedStoreIsNotTheSameWorkspace: the project record binds the
// store to the working tree's device and inode. A store copied along
// with its repository (same files, another directory) must be told
// apart, so that old work is never resumed on the strength of a copy.
func TestCopiedStoreIsNotTheSameWorkspace(t *testing.T) {
	ctx := context.Background()
	s, ws := openTemp(t)
	s.Close()
	copyDir := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", ws.Root, copyDir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	cws, err := ResolveWorkspace(ctx, copyDir)
	if err != nil {
		t.Fatal(err)
	}
	if cws.Dev == ws.Dev && cws.Inode == ws.Inode {
		t.Fatal("the copy has the original's identity")
	}
	c, err := OpenReadOnly(ctx, cws)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.IdentityMatches() {
		t.Fatalf("a copied store claims to belong to %s", cws.Root)
	}
	warned := false
	for _, f := range Check(ctx, cws) {
		if f.Check == "identity" && f.Status == StatusWarn {
			warned = true
		}
	}
	if !warned {
		t.Fatal("check did not report the copied store's identity mismatch")
	}
	o, err := OpenReadOnly(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if !o.IdentityMatches() {
		t.Fatal("the original store no longer matches its own workspace")
	}
}
