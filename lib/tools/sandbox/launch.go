package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/proc"
	"golang.org/x/sys/unix"
)

// LauncherCommand is the hidden fluzo-tool subcommand that enforces a plan
// on itself and execs the command: fluzo-tool sandbox-exec PLAN PROGRAM ARGS...
const LauncherCommand = "sandbox-exec"

// IsLaunch reports whether args (a process's os.Args) are a launcher
// re-exec. A binary that stands in for fluzo-tool (a test binary) must
// answer by its argument: the re-exec runs its resolved path with the
// command's scrubbed environment, so neither its name nor a variable says
// what it is.
func IsLaunch(args []string) bool { return len(args) > 1 && args[1] == LauncherCommand }

// LauncherArgv returns the argv that runs argv under plan through the
// launcher binary.
func LauncherArgv(launcher string, plan *Plan, argv []string) ([]string, error) {
	b, err := json.Marshal(plan)
	if err != nil {
		return nil, core.Wrap(err, core.CodeInternal, "cannot encode the sandbox plan")
	}
	return append([]string{launcher, LauncherCommand, string(b)}, argv...), nil
}

// Launch is the launcher: it decodes the plan, confines the process and
// runs argv (argv[0] an absolute path) as its only child, as the init of
// the command's PID namespace (see reaper.go). It returns only on
// failure, before anything of the command ran; otherwise it exits with
// the command.
func Launch(planJSON string, argv []string) error {
	var plan Plan
	if err := json.Unmarshal([]byte(planJSON), &plan); err != nil {
		return core.Wrap(err, core.CodeInvalidRequest, "the sandbox plan is not valid JSON").
			WithHint("sandbox-exec is started by fluzo-tool itself; do not call it by hand")
	}
	if len(argv) == 0 {
		return core.Errorf(core.CodeInvalidRequest, "sandbox-exec needs a program after the plan")
	}
	// The launcher is the init of a new PID namespace (see reaper.go); its
	// handlers must be in place before anything else can happen to it.
	sigs := catchSignals()
	if os.Getpid() != 1 {
		return Unavailable("the launcher was not started in a PID namespace of its own (no init to end the command's processes with it)")
	}
	control := controlSocket(plan.Control)
	// Everything below acts on the calling thread (the mount namespace,
	// no_new_privs' companion restriction and the Landlock domain are
	// per-thread until exec), so it must all run on one thread, the one
	// that forks the command.
	runtime.LockOSThread()
	stat, err := os.Open("/proc/self/stat")
	if err != nil {
		return Unavailable("cannot read the launcher's own /proc entry: " + err.Error())
	}
	defer stat.Close()
	parent := hostParent(stat)
	if err := bindReadOnly(plan.ReadOnly); err != nil {
		return Unavailable("cannot bind the protected paths read-only: " + err.Error())
	}
	// Without its own /proc (a kernel refuses procfs in a user namespace
	// when the host's /proc is partly masked, as in many containers) the
	// command still runs in its PID namespace, which is what ends its
	// daemons; it then sees the host's /proc, where /proc/self is right
	// and /proc/$$ is not.
	_ = mountOwnProc()
	if err := reenter(plan.Cwd); err != nil {
		return Unavailable(err.Error())
	}
	// A launcher started in its own user namespace holds CAP_SYS_ADMIN
	// there as an ambient capability; the command must not inherit it.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return Unavailable("cannot clear ambient capabilities: " + err.Error())
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return Unavailable("cannot set no_new_privs: " + err.Error())
	}
	if err := enforce(&plan); err != nil {
		return Unavailable(err.Error())
	}
	if err := dieWithParent(stat, parent); err != nil {
		return err
	}
	return superviseCommand(argv, control, sigs)
}

// controlSocket is the launcher's end of fluzo-tool's control socket
// (proc.ReaperFD), nil when the plan says there is none. It is kept from
// the command.
func controlSocket(present bool) *os.File {
	if !present {
		return nil
	}
	unix.CloseOnExec(proc.ReaperFD)
	return os.NewFile(uintptr(proc.ReaperFD), "control")
}

// bindReadOnly gives the thread a private mount namespace in which each
// existing path is bound read-only over itself. Landlock then forbids the
// command to change mounts, so it cannot undo the binding.
func bindReadOnly(paths []string) error {
	// Unshared even with nothing to bind: the command's /proc is mounted
	// in it.
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return &os.SyscallError{Syscall: "unshare(CLONE_NEWNS)", Err: err}
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return &os.SyscallError{Syscall: "mount(MS_PRIVATE)", Err: err}
	}
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return &os.SyscallError{Syscall: "mount(MS_BIND) " + p, Err: err}
		}
		var sfs unix.Statfs_t
		flags := uintptr(0)
		if unix.Statfs(p, &sfs) == nil {
			flags = lockedFlags(sfs.Flags)
		}
		if err := unix.Mount("", p, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|flags, ""); err != nil {
			return &os.SyscallError{Syscall: "mount(MS_REMOUNT|MS_RDONLY) " + p, Err: err}
		}
	}
	return nil
}

// lockedFlags keeps the flags of the mount a path is on: a remount that
// drops nosuid, nodev or noexec is refused.
func lockedFlags(st int64) uintptr {
	var f uintptr
	for from, to := range map[int64]uintptr{unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV, unix.ST_NOEXEC: unix.MS_NOEXEC,
		unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME} {
		if st&from != 0 {
			f |= to
		}
	}
	return f
}

// reenter changes to dir, which must be the directory the process is in
// already (same device and inode): the working directory inherited across
// a new mount namespace is the old namespace's, where the read-only binds
// do not apply, so it is re-entered by path inside the new one.
func reenter(dir string) error {
	if dir == "" {
		return nil
	}
	var before, after unix.Stat_t
	if err := unix.Stat(".", &before); err != nil {
		return &os.SyscallError{Syscall: "stat .", Err: err}
	}
	if err := unix.Chdir(dir); err != nil {
		return &os.SyscallError{Syscall: "chdir " + dir, Err: err}
	}
	if err := unix.Stat(".", &after); err != nil || after.Dev != before.Dev || after.Ino != before.Ino {
		return fmt.Errorf("the working directory %s changed while the command started", dir)
	}
	return nil
}

// SiblingLauncher is the fluzo-tool binary next to this executable, ""
// when there is none: fluzo-agent starts that one as its tool server and
// launches its MCP servers through it.
func SiblingLauncher() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	cand := filepath.Join(filepath.Dir(exe), "fluzo-tool")
	if st, err := os.Stat(cand); err != nil || !st.Mode().IsRegular() || unix.Access(cand, unix.X_OK) != nil {
		return ""
	}
	return cand
}

// dieWithParent re-arms the parent-death signal just before the command
// starts: the confinement steps above change this thread's credentials,
// which can clear the signal fluzo-tool's fork set, and then the launcher
// (and with it the namespace) would outlive a killed fluzo-tool. A parent
// that is already gone — the host's /proc names another one — means the
// command must not start at all.
func dieWithParent(stat *os.File, parent int) error {
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		return Unavailable("cannot set the parent-death signal: " + err.Error())
	}
	if hostParent(stat) != parent {
		return Unavailable("fluzo-tool exited before the command started")
	}
	return nil
}

// dropCapabilities empties the bounding set, so the command (and
// anything it execs, root or not) holds no capability: a non-dumpable
// fluzo-agent or fluzo-tool keeps its environment and memory from
// same-user processes only against those without capabilities (root
// without CAP_SYS_PTRACE still read it here; root without any did not).
// A process that cannot drop them (no CAP_SETPCAP) is refused unless it
// holds none, which is the unprivileged user's case.
func dropCapabilities() error {
	for c := 0; c < 64; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			return nil // past the kernel's last capability
		}
		if err != nil {
			// Without CAP_SETPCAP (a launcher in a user namespace that
			// only holds what it was given ambiently) the bounding set
			// stays, but a thread may always empty its own sets, and with
			// no_new_privs the exec cannot regain anything.
			clearOwnCapabilities()
			if held, herr := holdsCapabilities(); herr == nil && !held {
				return nil
			}
			return Unavailable("cannot drop the command's capabilities: " + err.Error())
		}
	}
	return nil
}

// holdsCapabilities reports whether the calling thread's effective or
// permitted set holds any capability.
func holdsCapabilities() (bool, error) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return false, err
	}
	for _, d := range data {
		if d.Effective != 0 || d.Permitted != 0 {
			return true, nil
		}
	}
	return false, nil
}

// clearOwnCapabilities empties the calling thread's effective, permitted
// and inheritable sets.
func clearOwnCapabilities() {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	unix.Capset(&hdr, &data[0])
}
