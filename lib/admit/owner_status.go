package admit

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// OwnerState is a read-only view of a workspace's ownership.
type OwnerState struct {
	V    int    `json:"v"`
	Type string `json:"type"` // "lock_status"
	// Held is true while a live process holds the lock.
	Held bool `json:"held"`
	// State is "running" (held), "free" (never owned or released) or
	// "crashed" (the record says running but nobody holds the lock).
	State  string       `json:"state"`
	Record *OwnerRecord `json:"owner,omitempty"`
}

// OwnerStatus reports who owns the workspace without taking ownership or
// writing anything. Whether the lock is held is probed with a shared,
// non-blocking flock on a separate descriptor, released at once.
func OwnerStatus(drive string) (OwnerState, error) {
	st := OwnerState{V: core.WireVersion, Type: "lock_status", State: "free"}
	if _, err := os.Lstat(drive); errors.Is(err, os.ErrNotExist) {
		return st, nil // never opened by Fluzo: nobody owns it
	}
	if err := checkDrive(drive); err != nil {
		return st, err
	}
	if rec, err := readRecord(drive); err == nil && rec.Instance != "" {
		st.Record = &rec
	}
	f, err := os.OpenFile(filepath.Join(drive, LockFile), os.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, core.Wrap(err, core.CodeStorageError, "cannot open the owner lock").WithHint("check permissions of %s", drive)
	}
	defer f.Close()
	err = unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB)
	switch {
	case errors.Is(err, unix.EWOULDBLOCK):
		st.Held, st.State = true, OwnerRunning
	case err != nil:
		return st, core.Wrap(err, core.CodeStorageError, "cannot probe the owner lock").WithHint("the filesystem must support flock(2)")
	default:
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		if st.Record != nil && st.Record.State == OwnerRunning {
			st.State = OwnerCrashed
		}
	}
	return st, nil
}
