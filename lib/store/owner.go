package store

import (
	"errors"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// OwnerActive reports whether another process holds the workspace-owner
// lock (.fluzodrive/owner.lock, taken with flock by the runtime owner; see
// lib/admit). It is a read-side probe: it never creates the lock file,
// never trusts a PID, and takes a non-blocking shared flock that it
// releases at once. An owner holding the exclusive lock makes the probe
// fail, which is the answer. The probe holds the shared lock for
// microseconds; an owner starting in that instant sees the workspace busy
// and reports so rather than waiting, which errs on the safe side.
func OwnerActive(ws Workspace) (bool, error) {
	fd, err := unix.Open(ws.OwnerLockPath(), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ENOENT):
		return false, nil
	case errors.Is(err, unix.ELOOP):
		return false, core.Errorf(core.CodeStorageError, "%s is a symbolic link", ws.OwnerLockPath()).
			WithHint("remove it; the owner lock must be a regular file")
	case err != nil:
		return false, storageErr(err, "cannot open "+ws.OwnerLockPath())
	}
	defer unix.Close(fd)
	err = unix.Flock(fd, unix.LOCK_SH|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true, nil
	}
	if err != nil {
		return false, storageErr(err, "cannot probe "+ws.OwnerLockPath())
	}
	unix.Flock(fd, unix.LOCK_UN)
	return false, nil
}
