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

// A server creates its private temporary directory and only then locks
// it; another server's (or its own) cleanup in between must not take the
// directory away. Abandoned ones (lock free, older than staleTempAge) go.
func TestStaleTempCleanupLeavesADirectoryBeingCreated(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	fresh := filepath.Join(os.TempDir(), tempPrefix+"fresh")
	old := filepath.Join(os.TempDir(), tempPrefix+"old")
	held := filepath.Join(os.TempDir(), tempPrefix+"held")
	for _, d := range []string{fresh, old, held} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * staleTempAge)
	for _, d := range []string{old, held} {
		if err := os.Chtimes(d, long, long); err != nil {
			t.Fatal(err)
		}
	}
	lock, err := lockDir(held, unix.LOCK_EX)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	removeStaleTemps()
	for d, want := range map[string]bool{fresh: true, old: false, held: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
