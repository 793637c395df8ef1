package confine

import (
	"path"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// TempPrefix starts the name of every temporary file Replace creates
// beside its target. The name is reserved: discovery, search and the
// baseline never show such a file, and RemoveTemp deletes leftovers of
// writes that were interrupted.
const TempPrefix = ".fluzo-tmp-"

// TempMinAge is how old a temporary file must be before RemoveTemp
// considers it a leftover; a writer takes its lock within microseconds of
// creating the file, so this only closes that window.
const TempMinAge = 2 * time.Second

// IsTemp reports whether rel names a reserved temporary file.
func IsTemp(rel string) bool { return strings.HasPrefix(path.Base(rel), TempPrefix) }

// lockTemp holds an exclusive flock on a temporary file for as long as
// its write is in progress (until after the rename), so RemoveTemp can
// tell a live write from a leftover. It returns the release function.
func lockTemp(fd int) func() {
	dup, err := unix.Dup(fd)
	if err != nil {
		return func() {}
	}
	unix.Flock(dup, unix.LOCK_EX)
	return func() { unix.Close(dup) }
}

// RemoveTemp deletes the reserved temporary file rel when it is a
// leftover: a regular file beneath the root, older than TempMinAge, whose
// writer no longer holds its lock (it died). It reports whether it removed
// the file.
func (r *Root) RemoveTemp(rel string) bool {
	if !IsTemp(rel) {
		return false
	}
	t, err := r.Locate(rel, false)
	if err != nil || !t.Exists {
		if t != nil {
			t.Close()
		}
		return false
	}
	defer t.Close()
	fd, err := r.openat2(t.parent, t.Name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, unix.RESOLVE_NO_SYMLINKS)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	if unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) != nil {
		return false
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || idOf(&st) != idOf(&t.Stat) ||
		time.Since(time.Unix(st.Mtim.Unix())) < TempMinAge {
		return false
	}
	return unix.Unlinkat(t.parent, t.Name, 0) == nil
}
