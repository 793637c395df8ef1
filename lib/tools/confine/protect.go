package confine

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// protectedIDs returns the identities of the protected objects as they are
// now: the root-level .git, .fluzo and .fluzodrive (resolved beneath the
// root, so a replacement is noticed), the user's auth file and its
// directory. Computing it per request costs a few syscalls and means a
// protected path created after the server started is protected too.
func (r *Root) protectedIDs() map[FileID]string {
	ids := map[FileID]string{}
	for name, what := range rootNames {
		fd, err := r.openat2(r.fd, name, unix.O_PATH, 0)
		if err != nil {
			continue
		}
		var st unix.Stat_t
		if unix.Fstat(fd, &st) == nil {
			ids[idOf(&st)] = what
		}
		unix.Close(fd)
	}
	for _, p := range []string{r.authFile, filepath.Dir(r.authFile)} {
		var st unix.Stat_t
		if unix.Stat(p, &st) == nil {
			ids[idOf(&st)] = "the user's Fluzo credentials"
		}
	}
	return ids
}

// checkAncestry walks from the directory dirfd up to the root through the
// kernel's ".." links and refuses when any directory on the way is
// protected, or when the walk reaches the filesystem root without meeting
// the workspace root (the directory is not beneath it after all).
func (r *Root) checkAncestry(dirfd int, display string, ids map[FileID]string) error {
	cur, err := unix.Openat(dirfd, ".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return sysError(err, display)
	}
	defer func() { unix.Close(cur) }()
	for depth := 0; depth < 4096; depth++ {
		var st unix.Stat_t
		if err := unix.Fstat(cur, &st); err != nil {
			return sysError(err, display)
		}
		id := idOf(&st)
		if what, ok := ids[id]; ok {
			return protected(display, what)
		}
		if id == r.id {
			return nil
		}
		up, err := unix.Openat(cur, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return sysError(err, display)
		}
		var upst unix.Stat_t
		if err := unix.Fstat(up, &upst); err != nil {
			unix.Close(up)
			return sysError(err, display)
		}
		unix.Close(cur)
		cur = up
		if idOf(&upst) == id {
			return outsideRoot(display)
		}
	}
	return outsideRoot(display)
}

// Node is a resolved, checked path beneath the root: its identity, type
// and its real root-relative path (the kernel's, with symlinks resolved).
type Node struct {
	Rel  string
	Stat unix.Stat_t
}

// IsDir reports whether the node is a directory.
func (n *Node) IsDir() bool { return n.Stat.Mode&unix.S_IFMT == unix.S_IFDIR }

// ID returns the node's identity.
func (n *Node) ID() FileID { return idOf(&n.Stat) }

// Lookup resolves p beneath the root (following symlinks that stay inside
// it), refuses special files and protected objects — including through
// symlinks, hard links to protected files and "a/../.git" spellings — and
// returns what was found.
func (r *Root) Lookup(p string) (*Node, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, err
	}
	fd, err := r.openat2(r.fd, rel, unix.O_PATH, 0)
	if err != nil {
		return nil, sysError(err, p)
	}
	defer unix.Close(fd)
	return r.check(fd, p)
}

// check validates an O_PATH descriptor obtained beneath the root.
func (r *Root) check(fd int, display string) (*Node, error) {
	n := &Node{}
	if err := unix.Fstat(fd, &n.Stat); err != nil {
		return nil, sysError(err, display)
	}
	switch n.Stat.Mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFDIR:
	default:
		return nil, core.Errorf(CodeSpecialFile, "%q is a device, FIFO or socket, which file tools refuse", display).
			WithHint("only regular files and directories can be read or written").With("path", display)
	}
	ids := r.protectedIDs()
	if what, ok := ids[n.ID()]; ok {
		return nil, protected(display, what)
	}
	if err := r.checkHardLink(n, display); err != nil {
		return nil, err
	}
	real, err := procPath(fd)
	if err != nil {
		return nil, unavailable(err)
	}
	rel, ok := r.relOfReal(real)
	if !ok {
		return nil, outsideRoot(display)
	}
	n.Rel = rel
	if rel == "." {
		return n, nil
	}
	if err := lexicalProtected(display, rel); err != nil {
		return nil, err
	}
	parent, err := r.openat2(r.fd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY, unix.RESOLVE_NO_SYMLINKS)
	if err != nil {
		return nil, changed(display)
	}
	defer unix.Close(parent)
	var st unix.Stat_t
	if err := unix.Fstatat(parent, path.Base(rel), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || idOf(&st) != n.ID() {
		return nil, changed(display)
	}
	if err := r.checkAncestry(parent, display, ids); err != nil {
		return nil, err
	}
	return n, nil
}

// relOfReal maps the kernel's path of a descriptor to a root-relative one.
func (r *Root) relOfReal(real string) (string, bool) {
	if strings.HasSuffix(real, " (deleted)") {
		return "", false
	}
	if real == r.real {
		return ".", true
	}
	prefix := r.real + "/"
	if r.real == "/" {
		prefix = "/"
	}
	if !strings.HasPrefix(real, prefix) {
		return "", false
	}
	return strings.TrimPrefix(real, prefix), true
}

// CodePathChanged reports a path replaced while it was being resolved.
const CodePathChanged core.Code = "path_changed"

func changed(display string) *core.Error {
	return core.Errorf(CodePathChanged, "%q changed while it was being opened", display).
		WithHint("retry; something else is renaming files in the workspace").With("path", display)
}

// OpenRead opens a regular file for reading after Lookup's checks. The
// file is reopened by its real path with symlinks disallowed and its
// identity compared, so a swap between the check and the open is caught.
func (r *Root) OpenRead(p string) (*os.File, *Node, error) {
	n, err := r.Lookup(p)
	if err != nil {
		return nil, nil, err
	}
	if n.IsDir() {
		return nil, nil, sysError(unix.EISDIR, p)
	}
	f, err := r.reopen(n, p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	return f, n, err
}

// OpenDir opens a directory for listing after Lookup's checks.
func (r *Root) OpenDir(p string) (*os.File, *Node, error) {
	n, err := r.Lookup(p)
	if err != nil {
		return nil, nil, err
	}
	if !n.IsDir() {
		return nil, nil, sysError(unix.ENOTDIR, p)
	}
	f, err := r.reopen(n, p, unix.O_RDONLY|unix.O_DIRECTORY)
	return f, n, err
}

func (r *Root) reopen(n *Node, display string, flags uint64) (*os.File, error) {
	fd, err := r.openat2(r.fd, n.Rel, flags, unix.RESOLVE_NO_SYMLINKS)
	if err != nil {
		return nil, changed(display)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || idOf(&st) != n.ID() {
		unix.Close(fd)
		return nil, changed(display)
	}
	return os.NewFile(uintptr(fd), n.Rel), nil
}
