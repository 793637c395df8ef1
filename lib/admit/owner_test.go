package admit

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// TestMain doubles as a helper process that owns a workspace until it is
// killed, so crash recovery is tested with a real process and kill -9.
func TestMain(m *testing.M) {
	if drive := os.Getenv("FLUZO_TEST_HOLD_OWNER"); drive != "" {
		o, err := AcquireOwner(drive, OwnerOptions{Socket: "/run/test.sock"})
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("held " + o.Record.Instance + "\n")
		// Sleep rather than select{}: a bare select can end in the
		// runtime's deadlock exit, and o must stay reachable or its lock
		// file's finalizer would close the descriptor and drop the flock.
		time.Sleep(time.Hour)
		runtime.KeepAlive(o)
	}
	os.Exit(m.Run())
}

func drive(t *testing.T) string {
	d := filepath.Join(t.TempDir(), ".fluzodrive")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestSecondOwnerIsBusyAndReleaseFrees(t *testing.T) {
	d := drive(t)
	o, err := AcquireOwner(d, OwnerOptions{Socket: "/run/a.sock"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Record.PID != os.Getpid() || o.Record.Protocol != ProtocolVersion || o.Record.Previous != nil || o.Record.Socket != "/run/a.sock" {
		t.Errorf("record %+v", o.Record)
	}
	_, err = AcquireOwner(d, OwnerOptions{})
	if fe := core.AsError(err); fe == nil || fe.Code != core.CodeWorkspaceBusy || !strings.Contains(fe.Message, o.Record.Instance) {
		t.Fatalf("second owner: %v", err)
	}
	st, err := OwnerStatus(d)
	if err != nil || !st.Held || st.State != OwnerRunning || st.Record.Instance != o.Record.Instance {
		t.Fatalf("status %+v %v", st, err)
	}
	if err := o.Release(); err != nil {
		t.Fatal(err)
	}
	if st, _ := OwnerStatus(d); st.Held || st.State != "free" {
		t.Errorf("after release %+v", st)
	}
	o2, err := AcquireOwner(d, OwnerOptions{})
	if err != nil || o2.Crashed() || o2.Record.Previous.State != OwnerReleased {
		t.Fatalf("after clean release: %+v %v", o2, err)
	}
	o2.Release()
}

func TestCrashedOwnerIsRecordedNeverSignalled(t *testing.T) {
	d := drive(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLUZO_TEST_HOLD_OWNER="+d)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "held ") {
		t.Fatalf("helper: %q", line)
	}
	instance := strings.TrimSpace(strings.TrimPrefix(line, "held "))
	_, err := AcquireOwner(d, OwnerOptions{})
	if fe := core.AsError(err); fe == nil || fe.Code != core.CodeWorkspaceBusy || fe.Details["pid"] != cmd.Process.Pid {
		t.Fatalf("while helper holds: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if st, _ := OwnerStatus(d); st.Held || st.State != OwnerCrashed {
		t.Fatalf("status after crash %+v", st)
	}
	o, err := AcquireOwner(d, OwnerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Release()
	p := o.Record.Previous
	if !o.Crashed() || p.Instance != instance || p.PID != cmd.Process.Pid || !p.SameBoot {
		t.Fatalf("previous %+v", p)
	}
}

func TestOwnerRefusesSymlinkedDrive(t *testing.T) {
	real := drive(t)
	link := filepath.Join(t.TempDir(), ".fluzodrive")
	os.Symlink(real, link)
	if _, err := AcquireOwner(link, OwnerOptions{}); core.CodeOf(err) != core.CodeStorageError {
		t.Errorf("symlinked drive: %v", err)
	}
	if _, err := AcquireOwner(filepath.Join(t.TempDir(), "missing"), OwnerOptions{}); core.CodeOf(err) != core.CodeStorageError {
		t.Errorf("missing drive: %v", err)
	}
}

func TestOwnerStatusWritesNothing(t *testing.T) {
	d := drive(t)
	for i := 0; i < 2; i++ {
		st, err := OwnerStatus(d)
		if err != nil || st.Held || st.State != "free" {
			t.Fatalf("%+v %v", st, err)
		}
		if entries, _ := os.ReadDir(d); len(entries) != 0 {
			t.Fatalf("status created %v", entries)
		}
	}
	if st, err := OwnerStatus(filepath.Join(t.TempDir(), "never-opened")); err != nil || st.State != "free" {
		t.Errorf("missing drive: %+v %v", st, err)
	}
}

func TestConcurrentOwnersNeverOverlap(t *testing.T) {
	d := drive(t)
	var holders, maxHolders, wins int64
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				OwnerStatus(d) // probes must not disturb owners
				o, err := AcquireOwner(d, OwnerOptions{})
				if err != nil {
					if core.CodeOf(err) != core.CodeWorkspaceBusy {
						t.Errorf("unexpected %v", err)
					}
					continue
				}
				n := atomic.AddInt64(&holders, 1)
				for m := atomic.LoadInt64(&maxHolders); n > m && !atomic.CompareAndSwapInt64(&maxHolders, m, n); m = atomic.LoadInt64(&maxHolders) {
				}
				atomic.AddInt64(&wins, 1)
				atomic.AddInt64(&holders, -1)
				o.Release()
			}
		}()
	}
	wg.Wait()
	if maxHolders != 1 || wins == 0 {
		t.Errorf("max simultaneous owners %d, wins %d", maxHolders, wins)
	}
}
