package agent

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/confine"
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

// swapRace exchanges dir/name (a regular file) with a symlink to the
// outside secret, continuously, while read runs: read must never return
// the secret. It reports how many swaps happened, to prove the race ran.
func swapRace(t *testing.T, dir, name, outside string, read func() string) {
	t.Helper()
	link := filepath.Join(dir, name+".link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var swaps atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, filepath.Join(dir, name), unix.AT_FDCWD, link, unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	defer func() { stop.Store(true); <-done }()
	deadline := time.Now().Add(3 * time.Second)
	for i := 0; i < 20_000 && time.Now().Before(deadline); i++ {
		if got := read(); strings.Contains(got, "SECRET") {
			t.Fatalf("read the outside file through a swapped-in symlink (iteration %d): %q", i, got)
		}
	}
	if swaps.Load() == 0 {
		t.Fatal("the swap never happened")
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
		found, err = DiscoverInstructions(context.Background(), dir)
		if err != nil {
			t.Error(err)
		}
	})
	if len(found) != 1 || found[0].Path != "AGENTS.md" {
		t.Fatalf("instructions = %+v, want only the plain root AGENTS.md", found)
	}
}

func TestInstructionsSwappedForALinkAreNotReadThroughIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("rules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := confine.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	swapRace(t, dir, "AGENTS.md", outsideSecret(t), func() string {
		in, _, _ := readInstructions(r, "AGENTS.md")
		return in.Content
	})
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
	within(t, "revalidation", func() { rv = revalidate(root, map[string]string{"linked.txt": v, "fifo.txt": v}) })
	if len(rv.Stale) != 2 {
		t.Fatalf("revalidation = %+v, want both files stale", rv)
	}
	for _, s := range rv.Stale {
		if s.Current != unreadableVersion {
			t.Errorf("%s current = %q, want %q", s.Path, s.Current, unreadableVersion)
		}
	}
}

func TestRevalidationOfASwappedFileIsNotReadThroughTheLink(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := confine.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	secretVersion := tools.Version([]byte(secret))
	swapRace(t, root, "f.txt", outsideSecret(t), func() string {
		if currentVersion(r, "f.txt") == secretVersion {
			return "SECRET version"
		}
		return ""
	})
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
	var first string
	within(t, "the fingerprint", func() {
		var err error
		if first, err = WorkspaceFingerprint(ctx, dir); err != nil {
			t.Error(err)
		}
	})
	// The link is fingerprinted by its target, not by what it points at.
	if err := os.WriteFile(outside, []byte("changed outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := WorkspaceFingerprint(ctx, dir)
	if err != nil || second != first {
		t.Fatalf("the fingerprint followed the link: %s then %s (%v)", first, second, err)
	}
	os.Remove(filepath.Join(dir, "a.txt"))
	os.Symlink(outside+".other", filepath.Join(dir, "a.txt"))
	if third, _ := WorkspaceFingerprint(ctx, dir); third == first {
		t.Fatal("retargeting the link did not change the fingerprint")
	}
}

func TestFingerprintOfASwappedFileIsNotReadThroughTheLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := confine.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	swapRace(t, dir, "f.txt", outsideSecret(t), func() string {
		var b bytes.Buffer
		hashFileInto(&b, r, "f.txt")
		return b.String()
	})
}
