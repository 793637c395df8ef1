// Package confine resolves workspace paths beneath a root directory handle
// with openat2(RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS), so that no path a
// tool receives can name a file outside the root, a special file, or one
// of the protected paths (.git, .fluzo, .fluzodrive, the user's auth file),
// however it is spelled. Protection is decided by file identity (device and
// inode) after the kernel has resolved the path, never by comparing strings.
package confine

import (
	"errors"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Error codes of confinement failures; they are part of the tool protocol.
const (
	CodeConfinementUnavailable core.Code = "confinement_unavailable"
	CodeOutsideRoot            core.Code = "outside_root"
	CodeProtectedPath          core.Code = "protected_path"
	CodeSpecialFile            core.Code = "special_file"
	CodeHardLink               core.Code = "hard_link_refused"
	CodeNotFound               core.Code = core.CodeNotFound
	CodeIsDirectory            core.Code = "is_directory"
	CodeNotDirectory           core.Code = "not_directory"
	CodeSymlinkLoop            core.Code = "symlink_loop"
	CodeAccessDenied           core.Code = "access_denied"
)

func outsideRoot(path string) *core.Error {
	return core.Errorf(CodeOutsideRoot, "%q resolves outside the workspace root", path).
		WithHint("use a path beneath the workspace root; symlinks leading out of it are refused").With("path", path)
}

func protected(path, what string) *core.Error {
	return core.Errorf(CodeProtectedPath, "%q is protected (%s)", path, what).
		WithHint("use the git tools for repository state and the settings flow for Fluzo configuration").With("path", path)
}

// sysError turns an errno from resolving path into a typed error. Every
// errno that could mean "the kernel refused to resolve beneath the root"
// maps to a refusal, never to a retry without the restriction.
func sysError(err error, path string) *core.Error {
	var errno unix.Errno
	if !errors.As(err, &errno) {
		return core.Wrap(err, core.CodeFailed, "cannot open "+quote(path))
	}
	switch errno {
	case unix.ENOSYS:
		return unavailable(err)
	case unix.EXDEV:
		return outsideRoot(path)
	case unix.ELOOP:
		return core.Errorf(CodeSymlinkLoop, "%q has a symlink loop, too many links, or a /proc magic link", path).
			WithHint("use the path of the real file beneath the workspace root").With("path", path)
	case unix.ENOENT:
		return core.Errorf(CodeNotFound, "%q does not exist", path).
			WithHint("check the path with ls or glob").With("path", path)
	case unix.ENOTDIR:
		return core.Errorf(CodeNotDirectory, "a component of %q is not a directory", path).
			WithHint("check the path with ls").With("path", path)
	case unix.EISDIR:
		return core.Errorf(CodeIsDirectory, "%q is a directory", path).
			WithHint("use ls to list a directory").With("path", path)
	case unix.ENAMETOOLONG:
		return core.Errorf(CodePathTooLong, "%q is too long to resolve (over %d bytes once links are followed, or a name over %d bytes)", path, MaxPathBytes, MaxNameBytes).
			WithHint("use a shorter path").With("path", path).With("limit", MaxPathBytes)
	case unix.EACCES, unix.EPERM:
		return core.Errorf(CodeAccessDenied, "access to %q is denied by the operating system", path).With("path", path)
	}
	return core.Wrap(err, core.CodeFailed, "cannot open "+quote(path)+": "+errno.Error())
}

func unavailable(err error) *core.Error {
	return core.Wrap(err, CodeConfinementUnavailable, "path confinement is unavailable: the kernel lacks openat2 or /proc").
		WithHint("run fluzo-tool on Linux 5.6 or newer with /proc mounted; file tools fail closed without it")
}

func quote(s string) string { return "\"" + s + "\"" }
