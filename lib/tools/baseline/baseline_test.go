package baseline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/tools/confine"
	"golang.org/x/sys/unix"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestCaptureFollowsNoLinkAndSurvivesAFIFO: a changed path that is a
// symlink is fingerprinted by its target text — never by the content it
// points at, inside the root or out — and a FIFO standing where a tracked
// file was does not block the capture.
func TestCaptureFollowsNoLinkAndSurvivesAFIFO(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	for p, body := range map[string]string{"other.txt": "OTHER\n", "fifo.txt": "f\n", "plain.txt": "p\n"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(outside, []byte("SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "init")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("other.txt", filepath.Join(dir, "in.txt")))
	must(os.Symlink(outside, filepath.Join(dir, "out.txt")))
	must(os.Remove(filepath.Join(dir, "fifo.txt")))
	must(unix.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "plain.txt"), []byte("p2\n"), 0o644))

	done := make(chan *Snapshot, 1)
	go func() {
		root, err := confine.Open(dir, "")
		if err != nil {
			t.Error(err)
			done <- nil
			return
		}
		defer root.Close()
		snap, err := Capture(context.Background(), root, os.Environ())
		if err != nil {
			t.Error(err)
		}
		done <- snap
	}()
	var snap *Snapshot
	select {
	case snap = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("capturing a baseline with a FIFO in the tree hung")
	}
	if snap == nil {
		return
	}
	want := map[string]string{
		"in.txt":    SymlinkPrefix + sha("other.txt"),
		"out.txt":   SymlinkPrefix + sha(outside),
		"fifo.txt":  Unreadable,
		"plain.txt": sha("p2\n"),
	}
	got := map[string]string{}
	for _, e := range snap.Entries {
		got[e.Path] = e.Fingerprint
	}
	for p, fp := range want {
		if got[p] != fp {
			t.Errorf("%s fingerprint = %q, want %q", p, got[p], fp)
		}
	}
}

// TestFingerprintOfASwappedFileIsNotReadThroughTheLink exchanges a listed
// file with a symlink to another file of the workspace, continuously:
// the fingerprint is always the file's own content or the link's.
func TestFingerprintOfASwappedFileIsNotReadThroughTheLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.txt"), []byte("OTHER\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("other.txt", filepath.Join(dir, "f.link")); err != nil {
		t.Fatal(err)
	}
	r, err := confine.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		swaps := 0
		for {
			select {
			case <-stop:
				done <- swaps
				return
			default:
			}
			if unix.Renameat2(unix.AT_FDCWD, filepath.Join(dir, "f.txt"), unix.AT_FDCWD, filepath.Join(dir, "f.link"), unix.RENAME_EXCHANGE) == nil {
				swaps++
			}
		}
	}()
	other := sha("OTHER\n")
	for i := 0; i < 20_000; i++ {
		if fingerprint(r, "f.txt") == other {
			close(stop)
			<-done
			t.Fatalf("iteration %d fingerprinted the link's target content", i)
		}
	}
	close(stop)
	if swaps := <-done; swaps == 0 {
		t.Fatal("the swap never happened")
	}
}
