package confine

import (
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// Present returns those of rels (root-relative names another program
// listed, such as git ls-files) that exist beneath the root now, in order.
// Each name is looked up in its directory through a handle opened beneath
// the root without following any symlink (RESOLVE_BENEATH|
// RESOLVE_NO_SYMLINKS), and the last component is not followed either. A
// lister that walked a directory while it was swapped for a symlink to
// somewhere outside reports names from there; none of them survives this,
// because the handle is either refused (the directory is a symlink now)
// or is the real directory inside, where such a name does not exist —
// or, if it does, it is an inside name.
func (r *Root) Present(rels []string) []string {
	out := rels[:0:0]
	cur, curFD := "", -1
	defer func() {
		if curFD >= 0 {
			unix.Close(curFD)
		}
	}()
	for _, rel := range rels {
		dir, name, ok := splitListed(rel)
		if !ok {
			continue
		}
		if dir != cur || curFD < 0 {
			if curFD >= 0 {
				unix.Close(curFD)
			}
			cur = dir
			// Listings come sorted, so one handle serves a directory's run.
			curFD, _ = r.openat2(r.fd, dir, unix.O_PATH|unix.O_DIRECTORY, unix.RESOLVE_NO_SYMLINKS)
		}
		if curFD < 0 {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(curFD, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			out = append(out, rel)
		}
	}
	return out
}

// splitListed splits a listed root-relative name into its directory and
// last component; names that are absolute, empty or climb are refused.
func splitListed(rel string) (dir, name string, ok bool) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) || path.Clean(rel) != rel {
		return "", "", false
	}
	for _, c := range strings.Split(rel, "/") {
		if c == ".." || c == "." {
			return "", "", false
		}
	}
	dir, name = path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	return dir, name, true
}
