package sandbox

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ABIEnv is a test seam: set to "0" it makes ABI report a kernel without
// Landlock, so the fail-closed path (sandbox_unavailable) can be tested on
// a machine that has it. Any other value is ignored: the seam can make
// fluzo-tool refuse every command, never enforce less than the kernel
// offers.
const ABIEnv = "FLUZO_TEST_LANDLOCK_ABI"

// ABI returns the Landlock ABI version the kernel offers, 0 when Landlock
// is missing or disabled.
func ABI() int {
	if os.Getenv(ABIEnv) == "0" {
		return 0
	}
	return kernelABI()
}

func kernelABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// Access rights by ABI version (the kernel refuses rights it does not know,
// so a ruleset handles exactly the rights of the version it runs on).
const (
	fsABI1 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	fsRefer    = unix.LANDLOCK_ACCESS_FS_REFER    // ABI 2
	fsTruncate = unix.LANDLOCK_ACCESS_FS_TRUNCATE // ABI 3
	fsIoctlDev = unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	netTCP     = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP // ABI 4
	scopeAll   = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL    // ABI 6

	// Rights grouped the way rules grant them.
	accessRead     = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	accessExec     = unix.LANDLOCK_ACCESS_FS_EXECUTE
	accessReadFile = unix.LANDLOCK_ACCESS_FS_READ_FILE
	accessWrite    = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_SYM | fsRefer | fsTruncate
	// accessDevice is what a device node rule grants: read, write,
	// truncate (">/dev/null" opens with O_TRUNC) and its ioctls.
	accessDevice = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | fsTruncate | fsIoctlDev
	// fileRights are the only rights a rule on a non-directory may carry.
	fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		fsTruncate | fsIoctlDev
)

// handled returns the filesystem rights, network rights and scopes a
// ruleset of ABI version abi handles. Handling a right with no rule
// granting it is what denies it.
func handled(abi int, network string) (fs, net, scoped uint64) {
	fs = fsABI1
	if abi >= 2 {
		fs |= fsRefer
	}
	if abi >= 3 {
		fs |= fsTruncate
	}
	if abi >= 5 {
		fs |= fsIoctlDev
	}
	if abi >= 4 && network == NetworkDeny {
		net = netTCP
	}
	if abi >= 6 {
		// Signals to processes outside the sandbox (fluzo-tool, the
		// agent, the user's other programs) are always refused; abstract
		// unix sockets are a way out to local services, so they follow
		// the network setting.
		scoped = unix.LANDLOCK_SCOPE_SIGNAL
		if network == NetworkDeny {
			scoped |= unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		}
	}
	return fs, net, scoped
}

// rulesetAttr is struct landlock_ruleset_attr up to ABI 6; the size passed
// to the kernel says which fields it reads.
type rulesetAttr struct {
	fs, net, scoped uint64
}

func (a *rulesetAttr) size(abi int) uintptr {
	switch {
	case abi >= 6:
		return 24
	case abi >= 4:
		return 16
	}
	return 8
}

// pathBeneathAttr is struct landlock_path_beneath_attr, which the kernel
// declares packed: 12 bytes, read from the start of this struct.
type pathBeneathAttr struct {
	allowed uint64
	fd      int32
	_       int32
}

// enforce builds the ruleset of p on the kernel and restricts the calling
// thread to it. The caller has set no_new_privs and locked the thread,
// and execs from it next: the restriction is the thread's, and the new
// program inherits it.
func enforce(p *Plan) error {
	attr := rulesetAttr{fs: p.HandledFS, net: p.HandledNet, scoped: p.Scoped}
	rfd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), attr.size(p.ABI), 0)
	if errno != 0 {
		return &os.SyscallError{Syscall: "landlock_create_ruleset", Err: errno}
	}
	defer unix.Close(int(rfd))
	for _, r := range p.Rules {
		if err := addRule(int(rfd), r); err != nil {
			return err
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, rfd, 0, 0); errno != 0 {
		return &os.SyscallError{Syscall: "landlock_restrict_self", Err: errno}
	}
	return nil
}

// addRule grants r's rights beneath r's path. A path that vanished since
// the plan was made is skipped: it grants nothing, which is the safe side.
func addRule(rfd int, r Rule) error {
	fd, err := unix.Open(r.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil
	}
	allowed := r.Access
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		allowed &= fileRights
	}
	if allowed == 0 {
		return nil
	}
	attr := pathBeneathAttr{allowed: allowed, fd: int32(fd)}
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd2(rfd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0); errno != 0 {
		return &os.SyscallError{Syscall: "landlock_add_rule " + r.Path, Err: errno}
	}
	return nil
}

func fd2(fd int) uintptr { return uintptr(fd) }
