package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/tools/confine"
	"golang.org/x/sys/unix"
)

// The runtime's reads of workspace files (AGENTS.md, file versions on
// resume, the verification fingerprint) are answered here, through the
// confinement root: a file swapped for a symlink between git's listing
// and the read is not read through it.

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
	secretVersion := Version([]byte(secret))
	swapRace(t, root, "f.txt", outsideSecret(t), func() string {
		if currentVersion(r, "f.txt") == secretVersion {
			return "SECRET version"
		}
		return ""
	})
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

// A server creates its private temporary directory and then locks it;
// another server's cleanup in between takes it away. Each directory
// newLockedTemp returns must exist at its path and be locked, however the
// two interleave; abandoned directories (lock free) are still removed.
func TestNewLockedTempSurvivesConcurrentCleanups(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	abandoned := filepath.Join(os.TempDir(), tempPrefix+"abandoned")
	killedCreating := filepath.Join(os.TempDir(), creatingPrefix+"killed")
	creating := filepath.Join(os.TempDir(), creatingPrefix+"now")
	for _, d := range []string{abandoned, killedCreating, creating} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * abandonedCreation)
	if err := os.Chtimes(killedCreating, long, long); err != nil {
		t.Fatal(err)
	}
	removeStaleTemps()
	for d, want := range map[string]bool{abandoned: false, killedCreating: false, creating: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
	os.Remove(creating)
	stop := make(chan struct{})
	var cleaned atomic.Int64
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				removeStaleTemps()
				cleaned.Add(1)
			}
		}
	}()
	defer close(stop)
	for i := 0; i < 1500; i++ {
		dir, lock, err := newLockedTemp()
		if err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("attempt %d: the directory returned is gone: %v", i, err)
		}
		if _, err := lockDir(dir, unix.LOCK_EX); err == nil {
			t.Fatalf("attempt %d: the directory returned is not locked", i)
		}
		lock.Close()
		os.Remove(dir)
	}
	if cleaned.Load() == 0 {
		t.Fatal("the cleanup never ran")
	}
}
