package confine

import (
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

func TestOpenNoFollowReadsOnlyTheFileItself(t *testing.T) {
	f := newFixture(t)
	must(t, unix.Mkfifo(filepath.Join(f.ws, "fifo"), 0o644))
	file, n, err := f.root.OpenNoFollow("sub/inner.txt")
	must(t, err)
	data, _ := io.ReadAll(file)
	file.Close()
	if string(data) != "inner\n" || n.Rel != "sub/inner.txt" {
		t.Fatalf("read %q as %q", data, n.Rel)
	}
	for p, want := range map[string]core.Code{
		"in":                    CodeSymlink, // a link inside the root is not followed either
		"out":                   CodeSymlink,
		"subln/inner.txt":       CodeSymlink,
		"outdir/secret.txt":     CodeSymlink,
		"abs":                   CodeSymlink,
		"fifo":                  CodeSpecialFile,
		"sub":                   CodeIsDirectory,
		"missing":               CodeNotFound,
		".git/config":           CodeProtectedPath,
		"../outside/secret.txt": CodeOutsideRoot,
	} {
		done := make(chan error, 1)
		go func() {
			file, _, err := f.root.OpenNoFollow(p)
			if file != nil {
				file.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if core.CodeOf(err) != want {
				t.Errorf("OpenNoFollow(%q) = %v, want %s", p, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("OpenNoFollow(%q) hung", p)
		}
	}
}

func TestReadlinkDoesNotFollow(t *testing.T) {
	f := newFixture(t)
	if got, err := f.root.Readlink("out"); err != nil || got != "../outside/secret.txt" {
		t.Fatalf("Readlink(out) = %q, %v", got, err)
	}
	if _, err := f.root.Readlink("subln/x"); core.CodeOf(err) != CodeSymlink {
		t.Fatalf("Readlink through a linked directory = %v", err)
	}
	if _, err := f.root.Readlink("file.txt"); core.CodeOf(err) != core.CodeInvalidRequest {
		t.Fatalf("Readlink(file.txt) = %v", err)
	}
}

// TestOpenNoFollowSwapRace swaps a file with a symlink to a secret outside
// the root, atomically and continuously, while it is read: every read
// either fails or returns the inside content.
func TestOpenNoFollowSwapRace(t *testing.T) {
	f := newFixture(t)
	must(t, os.WriteFile(filepath.Join(f.ws, "swap"), []byte("inside\n"), 0o644))
	must(t, os.Symlink(filepath.Join(f.out, "secret.txt"), filepath.Join(f.ws, "swapln")))
	var stop atomic.Bool
	var swaps atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, filepath.Join(f.ws, "swap"), unix.AT_FDCWD, filepath.Join(f.ws, "swapln"), unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	reads := 0
	for i := 0; i < 20_000; i++ {
		file, _, err := f.root.OpenNoFollow("swap")
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(file)
		file.Close()
		if string(data) != "inside\n" {
			stop.Store(true)
			<-done
			t.Fatalf("read %q through the swapped-in link", data)
		}
		reads++
	}
	stop.Store(true)
	<-done
	if swaps.Load() == 0 || reads == 0 {
		t.Fatalf("no race exercised: %d swaps, %d reads", swaps.Load(), reads)
	}
}
