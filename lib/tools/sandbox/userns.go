package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// InUserNamespace makes a child start in a new user, mount and PID namespace
// that maps only the caller's own uid and gid onto themselves, so a
// process without CAP_SYS_ADMIN can still give its launcher the private
// mount namespace the read-only binds need. Nothing else changes: the
// child keeps its identity, and files of other users show as the
// overflow id. The launcher keeps CAP_SYS_ADMIN in that namespace (an
// ambient capability: without it execve would drop it, the uid not being
// 0 there) just long enough to bind; it clears it before the command.
func InUserNamespace(a *syscall.SysProcAttr) {
	uid, gid := os.Getuid(), os.Getgid()
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
}

// UserNamespaceBindsWork runs launcher once, in a user namespace, with a
// plan that binds a directory read-only, and reports whether a command
// then failed to write into it — the whole mechanism, end to end, so a
// kernel or security module refusing any step (user namespaces are often
// restricted) is detected before a real command relies on it.
func UserNamespaceBindsWork(launcher string, abi int) bool {
	dir, err := os.MkdirTemp("", "fluzo-userns-probe-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	ro := filepath.Join(dir, "ro")
	if os.Mkdir(ro, 0o700) != nil {
		return false
	}
	plan := NewPlan(Input{ABI: abi, Workspace: dir, Temp: dir, Protected: []string{ro}, Env: []string{"PATH=/usr/bin:/bin"}})
	argv, err := LauncherArgv(launcher, plan, []string{"/bin/sh", "-c", "if echo x 2>/dev/null >ro/x; then exit 3; fi"})
	if err != nil {
		return false
	}
	cmd := &exec.Cmd{Path: argv[0], Args: argv, Dir: dir, Env: []string{"PATH=/usr/bin:/bin"}, SysProcAttr: &syscall.SysProcAttr{}}
	InUserNamespace(cmd.SysProcAttr)
	if cmd.Run() != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(ro, "x"))
	return os.IsNotExist(err)
}
