package store

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Permission modes of managed data (PRD §22.2: owner only).
const (
	DirMode  fs.FileMode = 0o700
	FileMode fs.FileMode = 0o600
)

// checkDataRoot refuses a data root that is a symlink or not a directory.
// It reports whether the directory exists.
func checkDataRoot(ws Workspace) (bool, error) {
	fi, err := os.Lstat(ws.Drive())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, core.Wrap(err, core.CodeStorageError, "cannot inspect "+ws.Drive()).
			WithHint("check the permissions of the workspace directory")
	case fi.Mode()&fs.ModeSymlink != 0:
		return true, core.Errorf(core.CodeStorageError, "%s is a symbolic link; Fluzo never follows a data-root symlink", ws.Drive()).
			WithHint("remove the link (rm %s) and run 'fluzo-store init' to create a private directory", ws.Drive())
	case !fi.IsDir():
		return true, core.Errorf(core.CodeStorageError, "%s exists but is not a directory", ws.Drive()).
			WithHint("move it away, then run 'fluzo-store init'")
	}
	return true, nil
}

// EnsureDrive creates the private data root (0700) and its artifact
// directory once git confirms .fluzodrive/ is untracked and excluded. It
// never follows a symlinked data root and tightens the mode of an existing
// one to owner-only.
func EnsureDrive(ctx context.Context, ws Workspace) error {
	if _, err := checkDataRoot(ws); err != nil {
		return err
	}
	ex, err := CheckExclusion(ctx, ws)
	if err != nil {
		return err
	}
	if !ex.OK() {
		return exclusionError(ws, ex)
	}
	for _, dir := range []string{ws.Drive(), ws.Artifacts()} {
		if err := mkdirPrivate(dir); err != nil {
			return err
		}
	}
	return nil
}

// mkdirPrivate creates dir with mode 0700 (or tightens it), refusing a
// symlink in its place.
func mkdirPrivate(dir string) error {
	err := os.Mkdir(dir, DirMode)
	if err != nil && readOnlyFS(err) {
		return readOnlyErr(err, "cannot create "+dir)
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return core.Wrap(err, core.CodeStorageError, "cannot create "+dir).
			WithHint("check the permissions of the parent directory and free space")
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot inspect "+dir)
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return core.Errorf(core.CodeStorageError, "%s is not a plain directory (symlink or file)", dir).
			WithHint("remove it and run 'fluzo-store init' again")
	}
	if fi.Mode().Perm() != DirMode {
		if err := os.Chmod(dir, DirMode); err != nil {
			return core.Wrap(err, core.CodeStorageError, "cannot make "+dir+" private (0700)")
		}
	}
	return nil
}

// createPrivateFile makes sure path exists as a regular 0600 file without
// following a symlink, so SQLite (which copies the database file's mode to
// its -wal and -shm files) never creates world-readable state.
func createPrivateFile(path string) error {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(FileMode))
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return core.Errorf(core.CodeStorageError, "%s is a symbolic link; refusing to open it", path).
				WithHint("remove the link; the store must be a regular file inside .fluzodrive")
		}
		return core.Wrap(err, core.CodeStorageError, "cannot create "+path).
			WithHint("check the permissions of .fluzodrive and free space")
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot inspect "+path)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return core.Errorf(core.CodeStorageError, "%s is not a regular file", path).
			WithHint("move it away and run 'fluzo-store init'")
	}
	if fs.FileMode(st.Mode).Perm() != FileMode {
		if err := unix.Fchmod(fd, uint32(FileMode)); err != nil {
			return core.Wrap(err, core.CodeStorageError, "cannot make "+path+" private (0600)")
		}
	}
	return nil
}
