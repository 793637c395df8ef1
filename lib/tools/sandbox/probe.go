package sandbox

import (
	"os"
	"runtime"
)

// MountsWork reports whether this process can give a thread a private
// mount namespace with a read-only bind (it needs CAP_SYS_ADMIN). It tries
// on a throwaway thread: the goroutine exits still locked, so the Go
// runtime ends the thread and its changed namespace with it.
func MountsWork() bool {
	dir, err := os.MkdirTemp("", "fluzo-mount-probe-")
	if err != nil {
		return false
	}
	defer os.Remove(dir)
	done := make(chan bool)
	go func() {
		runtime.LockOSThread()
		done <- bindReadOnly([]string{dir}) == nil
	}()
	return <-done
}
