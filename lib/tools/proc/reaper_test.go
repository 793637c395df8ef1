package proc

import (
	"bufio"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestMain lets this test binary act as a slow reaper: one that, like the
// sandbox launcher, ignores SIGTERM itself and takes a while between
// fluzo-tool's go and starting its command.
func TestMain(m *testing.M) {
	if os.Getenv("FLUZO_PROC_SLOW_REAPER") == "1" {
		os.Exit(slowReaper(os.Args[len(os.Args)-2:]))
	}
	os.Exit(m.Run())
}

func slowReaper(argv []string) int {
	signal.Notify(make(chan os.Signal, 1), unix.SIGTERM)
	control := os.NewFile(ReaperFD, "control")
	rd := bufio.NewReader(control)
	if line, _ := rd.ReadString('\n'); line != GoLine {
		return 1
	}
	time.Sleep(300 * time.Millisecond)
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		return 1
	}
	control.Write([]byte(StartedLine))
	var ws unix.WaitStatus
	for {
		if _, err := unix.Wait4(pid, &ws, 0, nil); err != unix.EINTR {
			break
		}
	}
	control.Write([]byte(StatusLine(ws)))
	rd.ReadString('\n')
	return 0
}

// A cancel that comes before the reaper has started its command reached
// the reaper alone, which ignores SIGTERM, and the command then ran its
// whole course: the signal is held until the reaper says the command
// exists.
func TestTerminateBeforeTheReaperStartsItsCommandReachesTheCommand(t *testing.T) {
	sleep, err := LookPath("sleep", os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	// The reaper is let go only once it handles SIGTERM, so the cancel
	// below finds it past that point and before its command exists.
	handling := func(pidfd int) error {
		pid := pidOfFD(t, pidfd)
		for !catchesSIGTERM(pid) {
			time.Sleep(time.Millisecond)
		}
		return nil
	}
	p, err := Start(Spec{Argv: []string{os.Args[0], "-test.run=^$", sleep, "20"}, Env: append(os.Environ(), "FLUZO_PROC_SLOW_REAPER=1"),
		Reaper: true, Track: handling, Timeout: 40 * time.Second, Grace: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p.Terminate()
	o := p.Wait()
	if o.ExitCode != nil {
		t.Fatalf("the command ran its course (exit code %d after %d ms): the cancel never reached it", *o.ExitCode, o.DurationMS)
	}
	if o.Signal != "SIGTERM" || !o.Cancelled {
		t.Fatalf("the command ended by %q, cancelled %v; want SIGTERM, cancelled", o.Signal, o.Cancelled)
	}
}

// pidOfFD reads the pid a pidfd refers to from its fdinfo.
func pidOfFD(t *testing.T, pidfd int) int {
	b, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(pidfd))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pid:"); ok {
			pid, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
	}
	t.Fatalf("no Pid in the pidfd's fdinfo:\n%s", b)
	return 0
}

// catchesSIGTERM reports whether pid has a handler for SIGTERM (SigCgt).
func catchesSIGTERM(pid int) bool {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && mask&(1<<(unix.SIGTERM-1)) != 0
		}
	}
	return false
}
