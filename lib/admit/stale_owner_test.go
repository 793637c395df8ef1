package admit

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestStaleRecordPIDIsNeverSignalled: the owner record of a crashed
// instance may name a PID that now belongs to an unrelated process. The
// next owner records it as crashed from the free lock alone and leaves
// that process alone.
func TestStaleRecordPIDIsNeverSignalled(t *testing.T) {
	d := drive(t)
	stranger := exec.Command("sleep", "60")
	if err := stranger.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stranger.Process.Kill(); stranger.Wait() }()
	stale := OwnerRecord{V: 1, Instance: "ins_stale", PID: stranger.Process.Pid, StartedAt: time.Now().UTC(),
		BootID: BootID(), Protocol: ProtocolVersion, State: OwnerRunning}
	if err := writeRecord(d, stale); err != nil {
		t.Fatal(err)
	}
	o, err := AcquireOwner(d, OwnerOptions{})
	if err != nil {
		t.Fatalf("a stale record without a held lock blocked the owner: %v", err)
	}
	defer o.Release()
	if p := o.Record.Previous; !o.Crashed() || p.Instance != "ins_stale" || p.PID != stranger.Process.Pid {
		t.Fatalf("previous owner %+v", p)
	}
	if err := stranger.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the process named by the stale record was signalled: %v", err)
	}
	var ws syscall.WaitStatus
	if pid, _ := syscall.Wait4(stranger.Process.Pid, &ws, syscall.WNOHANG, nil); pid != 0 {
		t.Fatalf("the process named by the stale record ended: %v", ws)
	}
}
