package testscripts

import (
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

func init() {
	register("mount-tmpfs", cmdMountTmpfs)
	register("remount-ro", cmdRemountReadOnly)
	register("remount-rw", cmdRemountWritable)
}

// mount-tmpfs DIR SIZE mounts a tmpfs of SIZE (as mount's size=, e.g. 3m)
// on DIR, creating it, and unmounts it (lazily, so a process still using
// it cannot block the cleanup) when the script ends, passed or failed.
// Scripts guard it with [root].
func cmdMountTmpfs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mount-tmpfs DIR SIZE")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size="+args[1]+",mode=0755"); err != nil {
		ts.Fatalf("mount -t tmpfs -o size=%s tmpfs %s: %v", args[1], dir, err)
	}
	ts.Defer(func() { unix.Unmount(dir, unix.MNT_DETACH) })
}

// remount-ro DIR remounts the tmpfs mounted on DIR by mount-tmpfs
// read-only, so a script meets a real EROFS rather than an injected one.
func cmdRemountReadOnly(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: remount-ro DIR")
	}
	dir := ts.MkAbs(args[0])
	if err := unix.Mount("", dir, "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		ts.Fatalf("mount -o remount,ro %s: %v", dir, err)
	}
}

// remount-rw DIR makes the tmpfs on DIR writable again.
func cmdRemountWritable(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: remount-rw DIR")
	}
	dir := ts.MkAbs(args[0])
	if err := unix.Mount("", dir, "", unix.MS_REMOUNT|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		ts.Fatalf("mount -o remount,rw %s: %v", dir, err)
	}
}

// condition answers the scripts' custom conditions: [root] holds when the
// tests run as root (needed to mount a small filesystem).
func condition(cond string) (bool, error) {
	switch strings.TrimSpace(cond) {
	case "root":
		return os.Geteuid() == 0, nil
	case "mcp":
		return mcpInstalled()
	case "sshd":
		return sshdInstalled()
	case "bwrap":
		return bwrapInstalled()
	}
	return false, &unknownCondition{cond}
}

type unknownCondition struct{ cond string }

func (u *unknownCondition) Error() string { return "unknown condition " + u.cond }
