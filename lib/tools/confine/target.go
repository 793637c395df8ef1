package confine

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// MaxEditBytes bounds the size of a file the write tools read back.
const MaxEditBytes = 64 << 20

// Target is the destination of a write: a verified parent directory handle
// and a name in it. Replace writes through the handle only, so no rename
// of a path component between check and write can redirect the write.
type Target struct {
	root    *Root
	parent  int
	Name    string
	Rel     string // real root-relative path of the file
	Exists  bool
	Stat    unix.Stat_t
	display string
}

// Close releases the parent handle.
func (t *Target) Close() { unix.Close(t.parent) }

// Locate resolves p as a write destination. An existing file must be a
// regular, singly linked, unprotected file beneath the root; a new file's
// parent directory is resolved (and, with mkdirs, created) beneath the
// root the same way.
func (r *Root) Locate(p string, mkdirs bool) (*Target, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, err
	}
	fd, err := r.openat2(r.fd, rel, unix.O_PATH, 0)
	if err == nil {
		defer unix.Close(fd)
		return r.existingTarget(fd, p)
	}
	if err != unix.ENOENT {
		return nil, sysError(err, p)
	}
	return r.newTarget(rel, p, mkdirs)
}

func (r *Root) existingTarget(fd int, display string) (*Target, error) {
	n, err := r.check(fd, display)
	if err != nil {
		return nil, err
	}
	if n.IsDir() {
		return nil, sysError(unix.EISDIR, display)
	}
	if n.Stat.Nlink > 1 {
		return nil, core.Errorf(CodeHardLink, "%q has %d hard links; writing it could change a file elsewhere", display, n.Stat.Nlink).
			WithHint("write a copy under a new name, or break the link outside Fluzo").With("path", display)
	}
	parent, err := r.openat2(r.fd, path.Dir(n.Rel), unix.O_PATH|unix.O_DIRECTORY, unix.RESOLVE_NO_SYMLINKS)
	if err != nil {
		return nil, changed(display)
	}
	return &Target{root: r, parent: parent, Name: path.Base(n.Rel), Rel: n.Rel, Exists: true, Stat: n.Stat, display: display}, nil
}

func (r *Root) newTarget(rel, display string, mkdirs bool) (*Target, error) {
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	if name == "" || name == "." || name == ".." {
		return nil, core.Errorf(core.CodeInvalidRequest, "%q does not name a file", display).WithHint("give a file path such as dir/name.txt")
	}
	parent, err := r.openat2(r.fd, dir, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err == unix.ENOENT && mkdirs {
		parent, err = r.mkdirs(dir, display)
	}
	if err != nil {
		return nil, asTyped(err, display)
	}
	n, err := r.check(parent, display)
	if err != nil {
		unix.Close(parent)
		return nil, err
	}
	if n.Rel == "." {
		if what, ok := rootNames[name]; ok {
			unix.Close(parent)
			return nil, protected(display, what)
		}
	}
	if err := r.checkAncestry(parent, display, r.protectedIDs()); err != nil {
		unix.Close(parent)
		return nil, err
	}
	var st unix.Stat_t
	if unix.Fstatat(parent, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		unix.Close(parent)
		return nil, core.Errorf(CodeOutsideRoot, "%q is a symlink whose target does not resolve beneath the workspace root", display).
			WithHint("write the target path itself").With("path", display)
	}
	return &Target{root: r, parent: parent, Name: name, Rel: path.Join(n.Rel, name), display: display}, nil
}

// mkdirs creates the missing directories of dir one component at a time,
// each inside a parent resolved beneath the root.
func (r *Root) mkdirs(dir, display string) (int, error) {
	comps := strings.Split(dir, "/")
	for i := range comps {
		prefix := strings.Join(comps[:i+1], "/")
		fd, err := r.openat2(r.fd, prefix, unix.O_PATH|unix.O_DIRECTORY, 0)
		if err == nil {
			if i == len(comps)-1 {
				return fd, nil
			}
			unix.Close(fd)
			continue
		}
		if err != unix.ENOENT {
			return -1, err
		}
		up := strings.Join(comps[:i], "/")
		if up == "" {
			up = "."
		}
		pfd, err := r.openat2(r.fd, up, unix.O_PATH|unix.O_DIRECTORY, 0)
		if err != nil {
			return -1, err
		}
		if _, err := r.check(pfd, display); err != nil {
			unix.Close(pfd)
			return -1, err
		}
		if err := r.checkAncestry(pfd, display, r.protectedIDs()); err != nil {
			unix.Close(pfd)
			return -1, err
		}
		err = unix.Mkdirat(pfd, comps[i], 0o755)
		unix.Close(pfd)
		if err != nil && err != unix.EEXIST {
			return -1, err
		}
	}
	return r.openat2(r.fd, dir, unix.O_PATH|unix.O_DIRECTORY, 0)
}

func asTyped(err error, display string) error {
	var fe *core.Error
	if errors.As(err, &fe) {
		return fe
	}
	return sysError(err, display)
}

// Current reads the file's present content (nil when it does not exist),
// verifying it is still the file Locate checked.
func (t *Target) Current() ([]byte, error) {
	if !t.Exists {
		return nil, nil
	}
	fd, err := t.root.openat2(t.parent, t.Name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, unix.RESOLVE_NO_SYMLINKS)
	if err != nil {
		return nil, changed(t.display)
	}
	f := os.NewFile(uintptr(fd), t.Rel)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || idOf(&st) != idOf(&t.Stat) {
		return nil, changed(t.display)
	}
	if st.Size > MaxEditBytes {
		return nil, core.Errorf("file_too_large", "%q is %d bytes, over the %d-byte limit for edits", t.display, st.Size, MaxEditBytes).
			WithHint("edit a smaller file or use a process tool")
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxEditBytes+1))
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot read "+quote(t.display))
	}
	return data, nil
}

// Replace atomically replaces the file with data: a temporary file in the
// same directory (created through the verified parent handle, unnamed
// where the file system allows: see TempPrefix), fsync, a final check
// that the destination is still what was read, rename (or link, for a new
// file), and fsync of the directory. The original mode (and owner, where
// permitted) is kept; a new file gets 0644.
func (t *Target) Replace(data []byte) error {
	mode := uint32(0o644)
	if t.Exists {
		mode = t.Stat.Mode & 0o7777
	}
	tmp, f, err := createTemp(t.parent)
	if err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot create a temporary file beside "+quote(t.display))
	}
	defer tmp.release()
	if err := writeSynced(f, data, mode, t); err != nil {
		return err
	}
	if err := t.unchanged(); err != nil {
		return err
	}
	if err := tmp.moveTo(t.Name, t.Exists); err != nil {
		if err == unix.EEXIST {
			return changed(t.display)
		}
		return core.Wrap(err, core.CodeFailed, "cannot rename the new content into "+quote(t.display))
	}
	if dfd, err := unix.Openat(t.parent, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
		unix.Fsync(dfd)
		unix.Close(dfd)
	}
	return nil
}

func writeSynced(f *os.File, data []byte, mode uint32, t *Target) error {
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot write the new content of "+quote(t.display))
	}
	if err := f.Chmod(os.FileMode(mode&0o777) | unixModeBits(mode)); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot set the mode of "+quote(t.display))
	}
	if t.Exists && os.Geteuid() == 0 {
		f.Chown(int(t.Stat.Uid), int(t.Stat.Gid))
	}
	if err := f.Sync(); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot flush the new content of "+quote(t.display))
	}
	return nil
}

func unixModeBits(mode uint32) os.FileMode {
	var m os.FileMode
	if mode&unix.S_ISUID != 0 {
		m |= os.ModeSetuid
	}
	if mode&unix.S_ISGID != 0 {
		m |= os.ModeSetgid
	}
	if mode&unix.S_ISVTX != 0 {
		m |= os.ModeSticky
	}
	return m
}

// unchanged verifies that the destination is still what Locate saw.
func (t *Target) unchanged() error {
	var st unix.Stat_t
	err := unix.Fstatat(t.parent, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if !t.Exists {
		if err == unix.ENOENT {
			return nil
		}
		return changed(t.display)
	}
	if err != nil || idOf(&st) != idOf(&t.Stat) || st.Size != t.Stat.Size || st.Mtim != t.Stat.Mtim || st.Nlink != 1 {
		return changed(t.display)
	}
	return nil
}

func randomHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
