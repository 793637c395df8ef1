package confine

import (
	"os"
	"path"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// CodeSymlink reports a symlink where a caller reads without following
// links.
const CodeSymlink core.Code = "symlink_refused"

func symlinkRefused(display string) *core.Error {
	return core.Errorf(CodeSymlink, "%q is, or passes through, a symlink, which this read does not follow", display).
		WithHint("name the real file beneath the workspace root").With("path", display)
}

// OpenNoFollow opens a regular file for reading like OpenRead, but no
// component of p may be a symlink, not even one leading inside the root.
// It serves the runtime's own reads of paths git or a tool result named
// (AGENTS.md, fingerprints, revalidation): such a path names the file
// itself, so a link standing there — perhaps swapped in after the listing —
// is refused rather than read through. Resolution, the type check (a FIFO
// or device is refused from an O_PATH handle, so nothing blocks) and the
// open all act on the kernel's handles: there is no window between a
// check and the use.
func (r *Root) OpenNoFollow(p string) (*os.File, *Node, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, nil, err
	}
	fd, err := r.openat2(r.fd, rel, unix.O_PATH, unix.RESOLVE_NO_SYMLINKS)
	if err == unix.ELOOP {
		return nil, nil, symlinkRefused(p)
	}
	if err != nil {
		return nil, nil, sysError(err, p)
	}
	n, err := r.check(fd, p)
	unix.Close(fd)
	if err != nil {
		return nil, nil, err
	}
	if n.IsDir() {
		return nil, nil, sysError(unix.EISDIR, p)
	}
	f, err := r.reopen(n, p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	return f, n, err
}

// Readlink returns the target of the symlink p without following it. The
// directories leading to it are resolved beneath the root with no
// symlinks allowed.
func (r *Root) Readlink(p string) (string, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return "", err
	}
	dir, name := path.Split(path.Clean(rel))
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	if name == "" || name == "." || name == ".." {
		return "", core.Errorf(core.CodeInvalidRequest, "%q does not name a link", p).WithHint("give the link's path")
	}
	parent, err := r.openat2(r.fd, dir, unix.O_PATH|unix.O_DIRECTORY, unix.RESOLVE_NO_SYMLINKS)
	if err == unix.ELOOP {
		return "", symlinkRefused(p)
	}
	if err != nil {
		return "", sysError(err, p)
	}
	defer unix.Close(parent)
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(parent, name, buf)
	if err != nil {
		if err == unix.EINVAL {
			return "", core.Errorf(core.CodeInvalidRequest, "%q is not a symlink", p).WithHint("read it as a file").With("path", p)
		}
		return "", sysError(err, p)
	}
	return string(buf[:n]), nil
}
