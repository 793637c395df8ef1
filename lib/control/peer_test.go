package control

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// The control socket answers only its owner's user (SO_PEERCRED), even
// when the file permissions would let another user connect: a command
// from another UID gets permission_denied and its handler never runs.
func TestControlSocketRefusesAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("connecting as another user needs root (to switch the effective UID)")
	}
	// A directory every user can traverse, so only the peer check stands
	// between another user and the owner.
	base, err := os.MkdirTemp("", "fluzo-peer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	t.Setenv("XDG_RUNTIME_DIR", base)
	root := t.TempDir()
	ran := false
	srv, err := Listen(root, map[string]Handler{
		"status": func(ctx context.Context, raw []byte) (any, error) {
			ran = true
			return map[string]string{"state": "running"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	os.Chmod(filepath.Dir(SocketPath(root)), 0o777)
	os.Chmod(SocketPath(root), 0o777)

	const nobody = 65534
	if err := syscall.Seteuid(nobody); err != nil {
		t.Fatal(err)
	}
	ans, err := Dial(context.Background(), root, map[string]any{"cmd": "status"})
	if err := syscall.Seteuid(0); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatalf("dial as another user: %v", err)
	}
	var rec core.ErrorRecord
	json.Unmarshal(ans, &rec)
	if rec.Type != "error" || rec.Error == nil || rec.Error.Code != core.CodePermissionDenied || ran {
		t.Fatalf("another user's command was answered: %s (handler ran: %v)", ans, ran)
	}
	// The owner's own user is still served.
	if ans, err := Dial(context.Background(), root, map[string]any{"cmd": "status"}); err != nil || !ran {
		t.Fatalf("owner refused: %s %v", ans, err)
	}
}

// Without XDG_RUNTIME_DIR the socket lives under the shared temporary
// directory, where anyone can create the fluzo-UID name first. A symlink
// or a directory others can write is refused, never listened in.
func TestControlSocketDirectoryMustBePrivate(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	root := t.TempDir()
	dir := filepath.Dir(SocketPath(root))
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(root, nil); core.CodeOf(err) != core.CodePermissionDenied {
		t.Fatalf("a symlinked socket directory was accepted: %v", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("the socket was created through the symlink: %v", entries)
	}
	os.Remove(dir)
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	if _, err := Listen(root, nil); core.CodeOf(err) != core.CodePermissionDenied {
		t.Fatalf("a world-writable socket directory was accepted: %v", err)
	}
	os.Chmod(dir, 0o700)
	srv, err := Listen(root, nil)
	if err != nil {
		t.Fatalf("a private directory was refused: %v", err)
	}
	srv.Close()
}
