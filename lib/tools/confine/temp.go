package confine

import (
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// TempPrefix starts the name of every temporary file Replace gives a name
// beside its target. The name is reserved: discovery, search and the
// baseline never show such a file, and RemoveTemp deletes leftovers of
// writes that were interrupted.
//
// Why temporary files are hidden by construction rather than excluded:
// the user's own `git status` and `ls` cannot be taught a pattern without
// writing into .git (protected) or their ignore files, so Replace writes
// the new content into an unnamed O_TMPFILE inode and gives it a name only
// for the instant of the rename (a new file is linked straight to its
// destination and never has a temporary name). A kill during the write
// leaves nothing to see. Every name Replace does create carries its
// writer's identity and is locked before it exists, so a sweeper removes
// a leftover as soon as its writer is provably dead, with no age rule.
const TempPrefix = ".fluzo-tmp-"

// legacyTempMinAge is how old a reserved file without a writer stamp (from
// an older Fluzo, whose writers created the name before locking it) must
// be before RemoveTemp treats it as a leftover.
const legacyTempMinAge = 2 * time.Second

// IsTemp reports whether rel names a reserved temporary file.
func IsTemp(rel string) bool { return strings.HasPrefix(path.Base(rel), TempPrefix) }

// tempStage is a test seam: it is called at each step of a temporary
// file's life ("created", "written", "named") so a test can kill the
// writer exactly there.
var tempStage = func(string) {}

// anonymousTemps lets a test force the named fallback used on file systems
// without O_TMPFILE.
var anonymousTemps = true

// tempFile is the temporary file of one Replace: an unnamed inode (or,
// where O_TMPFILE is unsupported, a stamped name) in the target's parent,
// whose flock is held until Replace returns.
type tempFile struct {
	parent int
	name   string // the stamped reserved name it gets (or has, when named)
	lock   int    // a descriptor holding the flock, -1 if none
	named  bool   // name exists in parent and is ours to remove
	done   bool   // the content was moved to its destination
}

// createTemp makes the temporary file in parent and returns it with a
// writable *os.File the caller writes, syncs and closes.
func createTemp(parent int) (*tempFile, *os.File, error) {
	tf := &tempFile{parent: parent, name: TempPrefix + writerStamp() + "-" + randomHex(), lock: -1}
	if anonymousTemps {
		fd, err := unix.Openat(parent, ".", unix.O_WRONLY|unix.O_TMPFILE|unix.O_CLOEXEC, 0o600)
		if err == nil {
			// Without /proc the inode could never be named: use a name.
			if tf.lock = lockTemp(fd); tf.lock >= 0 && unix.Access(procFD(tf.lock), unix.F_OK) == nil {
				tempStage("created")
				return tf, os.NewFile(uintptr(fd), tf.name), nil
			}
			tf.release()
			tf.lock = -1
			unix.Close(fd)
		}
	}
	fd, err := unix.Openat(parent, tf.name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, nil, err
	}
	tf.named = true
	// Between the create above and this lock the file is unlocked; the
	// stamp in its name tells a sweeper its writer is still alive.
	tempStage("created")
	tf.lock = lockTemp(fd)
	return tf, os.NewFile(uintptr(fd), tf.name), nil
}

// lockTemp takes an exclusive flock on a duplicate of fd, kept open until
// release, so RemoveTemp can tell a live write from a leftover.
func lockTemp(fd int) int {
	dup, err := unix.Dup(fd)
	if err != nil {
		return -1
	}
	unix.Flock(dup, unix.LOCK_EX)
	return dup
}

// moveTo puts the written content at name in the parent: linked straight
// there when the file is new and still unnamed, else renamed over it
// (replace) or beside it (RENAME_NOREPLACE). An existing destination that
// must not be replaced fails with EEXIST.
func (tf *tempFile) moveTo(name string, replace bool) error {
	tempStage("written")
	if !tf.named && !replace {
		err := tf.link(name)
		tf.done = err == nil
		return err
	}
	if !tf.named {
		if err := tf.link(tf.name); err != nil {
			return err
		}
		tf.named = true
	}
	tempStage("named")
	flags := uint(0)
	if !replace {
		flags = unix.RENAME_NOREPLACE
	}
	if err := unix.Renameat2(tf.parent, tf.name, tf.parent, name, flags); err != nil {
		return err
	}
	tf.done = true
	return nil
}

// link gives the unnamed inode a name through its /proc/self/fd entry,
// the way an unprivileged process may (AT_EMPTY_PATH needs a capability).
func (tf *tempFile) link(name string) error {
	return unix.Linkat(unix.AT_FDCWD, procFD(tf.lock), tf.parent, name, unix.AT_SYMLINK_FOLLOW)
}

func procFD(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

// release drops the lock and removes the temporary name of a write that
// did not complete.
func (tf *tempFile) release() {
	if tf.named && !tf.done {
		unix.Unlinkat(tf.parent, tf.name, 0)
	}
	if tf.lock >= 0 {
		unix.Close(tf.lock)
	}
}

// writerStamp names this process as "PID.STARTTIME" (its start time in
// clock ticks since boot, from /proc), which no later process shares even
// when it reuses the PID.
func writerStamp() string {
	return strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(startTime(os.Getpid()), 10)
}

// startTime returns field 22 of /proc/PID/stat, 0 when it is unreadable.
func startTime(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces and parentheses; the
	// fields after it start behind its last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}

// writerGone reports whether the writer stamped in a reserved name is
// provably dead; ok is false for a name without a stamp.
func writerGone(name string) (gone, ok bool) {
	stamp, _, found := strings.Cut(strings.TrimPrefix(name, TempPrefix), "-")
	pidText, startText, dotted := strings.Cut(stamp, ".")
	pid, err1 := strconv.Atoi(pidText)
	start, err2 := strconv.ParseUint(startText, 10, 64)
	if !found || !dotted || err1 != nil || err2 != nil || pid <= 0 {
		return false, false
	}
	if err := unix.Kill(pid, 0); err == unix.ESRCH {
		return true, true
	}
	// The PID is in use: by the writer unless it started at another time.
	// An unknown start time (no /proc) is taken as alive.
	now := startTime(pid)
	return start != 0 && now != 0 && now != start, true
}

// RemoveTemp deletes the reserved temporary file rel when it is a
// leftover: a regular file beneath the root whose writer no longer holds
// its lock and is provably gone (or, for an unstamped legacy name, that is
// older than legacyTempMinAge). It reports whether it removed the file.
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
	if unix.Fstat(fd, &st) != nil || idOf(&st) != idOf(&t.Stat) {
		return false
	}
	gone, stamped := writerGone(t.Name)
	if !stamped {
		gone = time.Since(time.Unix(st.Mtim.Unix())) >= legacyTempMinAge
	}
	return gone && unix.Unlinkat(t.parent, t.Name, 0) == nil
}
