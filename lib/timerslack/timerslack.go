// Package timerslack starts children with the timer slack the process
// was started with.
//
// fluzo-agent raises its own threads' timer slack (lib/timerslack/sysmon:
// the Go runtime's sysmon thread polls every 20 µs while any P is busy,
// and a wider slack lets the kernel batch those wake-ups — a fifth of the
// agent's own CPU per turn on the bench). The slack is inherited through
// fork and exec, so every child would inherit it too: a test suite the
// agent runs, whose timers would fire up to a millisecond late. Start
// gives a child the slack the process had before it was raised.
package timerslack

import (
	"os/exec"
	"runtime"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// original is the slack to give children, in ns; 0 when the process's
// slack was never raised (a binary without lib/timerslack/sysmon).
var original atomic.Uint64

// SetOriginal records the slack the process was started with (called by
// lib/timerslack/sysmon, which raised it).
func SetOriginal(ns uint64) { original.Store(ns) }

// Original is the recorded slack, or 0.
func Original() uint64 { return original.Load() }

// Start starts cmd with the process's original timer slack: a child
// inherits the slack of the thread that forks it, so the fork happens on
// a thread locked for the purpose, set to the original for the fork and
// set back after.
func Start(cmd *exec.Cmd) error {
	want := original.Load()
	if want == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cur, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil || uint64(cur) == want {
		return cmd.Start()
	}
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(want), 0, 0, 0); err != nil {
		return cmd.Start()
	}
	defer unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(cur), 0, 0, 0)
	return cmd.Start()
}

// Current is the timer slack of the calling thread, in ns (every thread
// of a process that raised it has the raised value).
func Current() (uint64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	return uint64(n), err
}
