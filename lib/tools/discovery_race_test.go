package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestDiscoverySwapRace runs ls, glob and grep in a git work tree while a
// directory is swapped, continuously and atomically, with a symlink to a
// directory outside the root. git ls-files follows the swapped-in link
// mid-walk, so its raw output sometimes names outside files; none may
// reach a reply. Bound by iterations (FLUZO_RACE_ITERATIONS overrides the
// default, which keeps CI cheap: every iteration runs git three times).
func TestDiscoverySwapRace(t *testing.T) {
	base := t.TempDir()
	root, out := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	git(t, base, "init", "-q", root)
	files := map[string]string{"d/in.txt": "needle inside\n", "top.txt": "needle top\n"}
	for i := 0; i < 5; i++ {
		files["../outside/OUTSIDE-"+strconv.Itoa(i)+".txt"] = "needle OUTSIDE\n"
	}
	writeFiles(t, root, files)
	if err := os.Symlink(out, filepath.Join(root, "alt")); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, root)

	var stop atomic.Bool
	var swaps atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, filepath.Join(root, "d"), unix.AT_FDCWD, filepath.Join(root, "alt"), unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	iterations := 40
	if v := os.Getenv("FLUZO_RACE_ITERATIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("FLUZO_RACE_ITERATIONS=%q is not a positive count", v)
		}
		iterations = n
	}
	outside, replies := 0, 0
	for i := 0; i < iterations; i++ {
		ls := callOK[ListResult](t, c, "ls", map[string]any{"depth": 3})
		glob := callOK[ListResult](t, c, "glob", map[string]any{"pattern": "**"})
		grep := callOK[GrepResult](t, c, "grep", map[string]any{"pattern": "needle"})
		names := append(ls.Entries, glob.Entries...)
		for _, m := range grep.Matches {
			names = append(names, m.Path, m.Text)
		}
		for _, n := range names {
			if strings.Contains(n, "OUTSIDE") {
				outside++
				t.Logf("iteration %d: outside name %q", i, n)
			}
		}
		replies += 3
	}
	stop.Store(true)
	<-done
	if outside != 0 {
		t.Fatalf("%d outside names in %d replies", outside, replies)
	}
	if swaps.Load() == 0 {
		t.Fatal("the race did not run: no swaps")
	}
	t.Logf("%d replies over %d swaps, 0 outside names", replies, swaps.Load())
}
