package admit

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
		select {}
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
