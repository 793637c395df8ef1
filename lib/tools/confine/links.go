package confine

import (
	"os"
	"path"
	"sort"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Hard links and reads.
//
// A path check cannot see a hard link: "notes.txt" may be another name of
// .git/config, and its path, its real path and its parent are all
// unprotected. Writes refuse every multiply linked file (CodeHardLink).
// Reads cannot do that — package managers (pnpm), build caches and
// `cp -l` trees link files on purpose — so a read refuses a file only when
// its inode is one of the protected files: every regular file beneath the
// root-level .git and .fluzodrive directories (plus .fluzo and the
// credential file, which protectedIDs already covers by identity).
//
// The kernel has no reverse lookup from an inode to its names, so the
// protected trees are walked, through descriptors only (no path is
// followed, symlinks are not entered), and only when it can matter: the
// file is regular, st_nlink > 1, and it is on the same filesystem as the
// tree (a hard link cannot cross filesystems). A protected file that is
// linked elsewhere has st_nlink > 1 too, so only such entries are compared.
// The walk is bounded (MaxProtectedWalk); past the bound the read is
// refused, because an unverified link must fail closed.
//
// Not covered: a nested repository's own .git (sub/.git) — finding those
// would mean walking the whole workspace per read; the lexical check still
// refuses any path through a .git component.

// MaxProtectedWalk bounds the entries one hard-link check visits.
const MaxProtectedWalk = 200000

func protectedLink(display, what string) *core.Error {
	return core.Errorf(CodeProtectedPath, "%q is a hard link to a file in %s, which file tools protect", display, what).
		WithHint("read the project's own files; hard links into .git or .fluzodrive are refused").With("path", display)
}

func unverifiedLink(display string) *core.Error {
	return core.Errorf(CodeProtectedPath, "%q has several hard links and the protected directories are too large (over %d entries) to prove it is not one of their files", display, MaxProtectedWalk).
		WithHint("read a copy of the file; a hard link that cannot be checked is refused").With("path", display)
}

// checkHardLink refuses a multiply linked regular file whose inode is a
// protected file's.
func (r *Root) checkHardLink(n *Node, display string) error {
	if n.Stat.Mode&unix.S_IFMT != unix.S_IFREG || n.Stat.Nlink < 2 {
		return nil
	}
	names := make([]string, 0, len(rootNames))
	for name := range rootNames {
		names = append(names, name)
	}
	sort.Strings(names)
	budget := MaxProtectedWalk
	for _, name := range names {
		fd, err := r.openat2(r.fd, name, unix.O_RDONLY|unix.O_DIRECTORY, unix.RESOLVE_NO_SYMLINKS)
		if err != nil {
			continue // absent, or not a directory (then protectedIDs has it)
		}
		found, ok := linkIn(fd, n.ID(), &budget)
		if found {
			return protectedLink(display, name+" ("+rootNames[name]+")")
		}
		if !ok {
			return unverifiedLink(display)
		}
	}
	return nil
}

// linkIn reports whether the tree of directory fd (which it closes) holds
// a regular file with identity id; ok is false when the budget ran out.
func linkIn(fd int, id FileID, budget *int) (found, ok bool) {
	dir := os.NewFile(uintptr(fd), "")
	defer dir.Close()
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || uint64(st.Dev) != id.Dev {
		return false, true
	}
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return false, true
	}
	for _, name := range names {
		if *budget--; *budget < 0 {
			return false, false
		}
		if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			if st.Nlink > 1 && idOf(&st) == id {
				return true, true
			}
		case unix.S_IFDIR:
			sub, err := unix.Openat(fd, path.Clean(name), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				continue
			}
			if found, ok := linkIn(sub, id, budget); found || !ok {
				return found, ok
			}
		}
	}
	return false, true
}
