package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// checkOwnerLock inspects .fluzodrive/owner.lock without opening it: the
// lock only protects the workspace when it is this user's own regular
// file. A symlink could point the owner's flock at a file someone else
// controls; a foreign file could be held by another user to block (or
// fake) ownership.
func checkOwnerLock(ws Workspace) Finding {
	path := ws.OwnerLockPath()
	f := Finding{Check: "owner_lock", Path: path}
	var st unix.Stat_t
	err := unix.Lstat(path, &st)
	switch {
	case errors.Is(err, unix.ENOENT):
		f.Status, f.Message = StatusOK, "no owner lock yet (created by the first task)"
	case err != nil:
		f.Status, f.Message = StatusFail, "cannot inspect "+path+": "+err.Error()
		f.Hint = "check the permissions of .fluzodrive"
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		f.Status, f.Message = StatusFail, path+" is a symbolic link; the owner lock must be a regular file"
		f.Hint = fmt.Sprintf("stop every Fluzo process in this workspace, then rm %s (it is recreated on the next task)", path)
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		f.Status, f.Message = StatusFail, path+" is not a regular file"
		f.Hint = fmt.Sprintf("stop every Fluzo process in this workspace, then remove %s", path)
	case int(st.Uid) != os.Geteuid():
		f.Status = StatusFail
		f.Message = fmt.Sprintf("%s belongs to uid %d, not to you (uid %d)", path, st.Uid, os.Geteuid())
		f.Hint = fmt.Sprintf("another user controls this workspace's lock; stop their Fluzo processes and remove %s", path)
	case fs.FileMode(st.Mode).Perm()&^FileMode != 0:
		f.Status = StatusFail
		f.Message = fmt.Sprintf("%s has mode %o; owner-only %o is required", path, fs.FileMode(st.Mode).Perm(), FileMode)
		f.Hint = fmt.Sprintf("chmod %o %s", FileMode, path)
	default:
		f.Status, f.Message = StatusOK, "the owner lock is a regular owner-only file you own"
	}
	return f
}
