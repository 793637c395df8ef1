package telemetry

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// writersLockName is flocked shared by every process writing the archive
// and exclusively by purge, so a purge never races a live writer.
const writersLockName = ".writers.lock"

// writerLock is a held flock; release closes it.
type writerLock struct{ f *os.File }

func (l *writerLock) release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

func openLockFile(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, writersLockName), os.O_RDWR|os.O_CREATE|syscallNoFollow, 0o600)
}

// acquireWriter takes the shared lock, waiting a bounded time for a purge
// to finish; it never waits indefinitely.
func acquireWriter(dir string, wait time.Duration) (*writerLock, error) {
	f, err := openLockFile(dir)
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot open the telemetry archive lock")
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		if err == nil {
			return &writerLock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			return nil, core.Errorf(core.CodeWorkspaceBusy, "the telemetry archive is being purged").
				WithHint("wait for fluzo-observe purge to finish, then run again")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// acquireExclusive takes the purge lock without waiting: an active writer
// makes it fail with workspace_busy.
func acquireExclusive(dir string) (*writerLock, error) {
	f, err := openLockFile(dir)
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot open the telemetry archive lock")
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, core.Errorf(core.CodeWorkspaceBusy, "a running Fluzo process is writing the telemetry archive").
			WithHint("stop or wait for the running task (fluzo-agent status), then purge again")
	}
	return &writerLock{f: f}, nil
}

// WriterActive reports whether a process currently holds the archive's
// writer lock. It creates nothing and never waits.
func WriterActive(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, writersLockName), os.O_RDONLY|syscallNoFollow, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
