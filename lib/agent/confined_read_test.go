package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/tools"
	"golang.org/x/sys/unix"
)

// The runtime's own reads of workspace files (AGENTS.md, revalidation on
// resume, the verification fingerprint) go through the confinement root:
// no symlink is followed, a FIFO does not block, and a file swapped for a
// symlink between git's listing and the read is not read through it.

const secret = "SECRET outside the workspace\n"

// outsideSecret returns a file outside every workspace.
func outsideSecret(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(p, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// within fails the test when fn does not return in time (a FIFO opened
// for reading blocks until a writer appears).
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s hung", what)
	}
}

func TestInstructionsNeverFollowALinkOrBlockOnAFIFO(t *testing.T) {
	outside := outsideSecret(t)
	dir := newRepo(t, map[string]string{"AGENTS.md": "root rules\n", "a/AGENTS.md": "a rules\n", "b/AGENTS.md": "b rules\n"})
	// a/AGENTS.md is now a link out of the root, b/AGENTS.md a FIFO.
	os.Remove(filepath.Join(dir, "a/AGENTS.md"))
	if err := os.Symlink(outside, filepath.Join(dir, "a/AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "b/AGENTS.md"))
	if err := unix.Mkfifo(filepath.Join(dir, "b/AGENTS.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	var found []Instructions
	within(t, "AGENTS.md discovery", func() {
		var err error
		found, err = DiscoverInstructions(context.Background(), localReads(t, dir))
		if err != nil {
			t.Error(err)
		}
	})
	if len(found) != 1 || found[0].Path != "AGENTS.md" {
		t.Fatalf("instructions = %+v, want only the plain root AGENTS.md", found)
	}
}

func TestRevalidationReadsNoLinkAndNoFIFO(t *testing.T) {
	outside := outsideSecret(t)
	root := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "linked.txt")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(root, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The recorded versions are those of the outside content: read
	// through the link, the file would look unchanged.
	v := tools.Version([]byte(secret))
	var rv Revalidation
	within(t, "revalidation", func() {
		rv = revalidate(context.Background(), localReads(t, root), map[string]string{"linked.txt": v, "fifo.txt": v})
	})
	if len(rv.Stale) != 2 {
		t.Fatalf("revalidation = %+v, want both files stale", rv)
	}
	for _, s := range rv.Stale {
		if s.Current != tools.UnreadableVersion {
			t.Errorf("%s current = %q, want %q", s.Path, s.Current, tools.UnreadableVersion)
		}
	}
}

func TestFingerprintHashesNoLinkTargetContentAndSurvivesAFIFO(t *testing.T) {
	outside := outsideSecret(t)
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	os.Remove(filepath.Join(dir, "a.txt"))
	if err := os.Symlink(outside, filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "b.txt"))
	if err := unix.Mkfifo(filepath.Join(dir, "b.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	reads := localReads(t, dir)
	var first string
	within(t, "the fingerprint", func() {
		var err error
		if first, err = WorkspaceFingerprint(ctx, reads); err != nil {
			t.Error(err)
		}
	})
	// The link is fingerprinted by its target, not by what it points at.
	if err := os.WriteFile(outside, []byte("changed outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := WorkspaceFingerprint(ctx, reads)
	if err != nil || second != first {
		t.Fatalf("the fingerprint followed the link: %s then %s (%v)", first, second, err)
	}
	os.Remove(filepath.Join(dir, "a.txt"))
	os.Symlink(outside+".other", filepath.Join(dir, "a.txt"))
	if third, _ := WorkspaceFingerprint(ctx, reads); third == first {
		t.Fatal("retargeting the link did not change the fingerprint")
	}
}
