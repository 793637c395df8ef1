package tools

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWritesAndProcessesAreSerialisedPerRoot: while one process runs in
// the root, a write and a second process wait for it; they proceed once it
// ends. The first process blocks until the test creates "release", so a
// write or process that does not wait is observed finishing before then.
func TestWritesAndProcessesAreSerialisedPerRoot(t *testing.T) {
	root := t.TempDir()
	c := newClient(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	send := func(tool string, args any) <-chan Result { return callAsync(ctx, t, c, tool, args) }
	holder := send("shell", map[string]any{"script": "echo up > started; while [ ! -e release ]; do sleep 0.01; done"})
	waitForFile(t, filepath.Join(root, "started"))
	write := send("write", map[string]any{"path": "w.txt", "content": "x\n", "expect_version": "absent"})
	second := send("exec", map[string]any{"argv": []string{"touch", "second"}})
	select {
	case r := <-write:
		t.Fatalf("a write finished while a process held the root: %+v", r)
	case r := <-second:
		t.Fatalf("a second process ran beside the first: %+v", r)
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := os.Stat(filepath.Join(root, "second")); err == nil {
		t.Fatal("the second process ran before the first ended")
	}
	if err := os.WriteFile(filepath.Join(root, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]<-chan Result{"holder": holder, "write": write, "second": second} {
		if r := <-ch; !r.OK {
			t.Fatalf("%s failed after release: %+v", name, r.Err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "w.txt")); err != nil || string(b) != "x\n" {
		t.Fatalf("w.txt = %q, %v", b, err)
	}
}
