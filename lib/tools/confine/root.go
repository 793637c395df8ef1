package confine

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// FileID is a file's identity: the pair the kernel uses, immune to how a
// path spells it.
type FileID struct{ Dev, Ino uint64 }

func idOf(st *unix.Stat_t) FileID { return FileID{Dev: uint64(st.Dev), Ino: st.Ino} }

// Root is an open handle on a workspace root. All resolution happens
// relative to its O_PATH descriptor; the path strings it keeps are used
// for messages and to map absolute arguments, never to decide access.
type Root struct {
	fd       int
	dir      string // absolute root as given, cleaned
	real     string // the kernel's name for the root (from /proc)
	id       FileID
	authFile string
}

// rootNames are protected when they appear directly under the root.
var rootNames = map[string]string{
	".git":        "repository metadata",
	".fluzo":      "project configuration",
	".fluzodrive": "Fluzo private state",
}

// AuthFile returns the user's credential file path,
// ${XDG_CONFIG_HOME:-~/.config}/fluzo/auth.toml.
func AuthFile() string {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "fluzo", "auth.toml")
}

// Open opens dir as a confinement root. authFile names the credential
// file to protect ("" for AuthFile()). It fails closed with
// confinement_unavailable when openat2 or /proc is missing.
func Open(dir, authFile string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, core.Wrap(err, core.CodeInvalidRequest, "cannot make the root "+quote(dir)+" absolute")
	}
	fd, err := unix.Open(abs, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, core.Wrap(err, core.CodeNotFound, "the workspace root "+quote(abs)+" cannot be opened as a directory").
			WithHint("pass --root with an existing directory")
	}
	if authFile == "" {
		authFile = AuthFile()
	}
	r := &Root{fd: fd, dir: abs, authFile: authFile}
	probe, err := r.openat2(r.fd, ".", unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		unix.Close(fd)
		return nil, unavailable(err)
	}
	unix.Close(probe)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, unavailable(err)
	}
	r.id = idOf(&st)
	real, err := procPath(fd)
	if err != nil {
		unix.Close(fd)
		return nil, unavailable(err)
	}
	r.real = real
	return r, nil
}

// Close releases the root handle.
func (r *Root) Close() error { return unix.Close(r.fd) }

// Dir returns the absolute root path as given.
func (r *Root) Dir() string { return r.dir }

// procPath asks the kernel for the current path of an open descriptor.
func procPath(fd int) (string, error) {
	p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return "", err
	}
	return p, nil
}

// sysOpenat2 is the system call; tests replace it to prove that a kernel
// without openat2 makes every tool fail closed.
var sysOpenat2 = unix.Openat2

// openat2 resolves rel beneath dirfd; magic links are always refused.
// EAGAIN (a concurrent rename seen during ".." resolution) and EINTR are
// retried a bounded number of times; nothing is ever retried without the
// RESOLVE_BENEATH restriction.
func (r *Root) openat2(dirfd int, rel string, flags uint64, extra uint64) (int, error) {
	how := unix.OpenHow{Flags: flags | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS | extra}
	var err error
	for i := 0; i < 64; i++ {
		var fd int
		fd, err = sysOpenat2(dirfd, rel, &how)
		if err == nil {
			return fd, nil
		}
		if err != unix.EAGAIN && err != unix.EINTR {
			return -1, err
		}
	}
	return -1, err
}

// Rel turns a tool's path argument into a root-relative path for the
// kernel to resolve. An absolute path is accepted only when it names the
// root or lies lexically beneath it; that is a convenience for models that
// echo absolute paths, not an access decision — the kernel still resolves
// the remainder beneath the root handle.
func (r *Root) Rel(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", core.Errorf(core.CodeInvalidRequest, "the path contains a NUL byte").WithHint("send a plain path")
	}
	if p == "" {
		return ".", nil
	}
	if err := checkPathLimits(p); err != nil {
		return "", err
	}
	rel := p
	if filepath.IsAbs(p) {
		clean := filepath.Clean(p)
		switch {
		case clean == r.dir || clean == r.real:
			return ".", nil
		case strings.HasPrefix(clean, r.dir+"/"):
			rel = strings.TrimPrefix(clean, r.dir+"/")
		case r.real != "/" && strings.HasPrefix(clean, r.real+"/"):
			rel = strings.TrimPrefix(clean, r.real+"/")
		default:
			return "", outsideRoot(p)
		}
	}
	if err := lexicalProtected(p, rel); err != nil {
		return "", err
	}
	return rel, nil
}

// lexicalProtected refuses obviously protected spellings early, with a
// clear message. It is a courtesy: identity checks after resolution are
// what actually protect these paths.
func lexicalProtected(orig, rel string) error {
	for _, c := range strings.Split(rel, "/") {
		if c == ".git" || c == ".fluzodrive" {
			return protected(orig, rootNames[c])
		}
	}
	clean := path.Clean(rel)
	first, _, _ := strings.Cut(clean, "/")
	if what, ok := rootNames[first]; ok {
		return protected(orig, what)
	}
	return nil
}
