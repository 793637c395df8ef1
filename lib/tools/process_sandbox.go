package tools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
	"golang.org/x/sys/unix"
)

// commandSandbox is what runProcess needs to confine one command: the argv
// to start (the launcher's, when sandboxed), the child environment with
// the private TMPDIR and the effective sandbox to report.
type commandSandbox struct {
	argv      []string
	env       []string
	effective sandbox.Effective
	// prepare adds namespaces to the spawn (nil: none).
	prepare func(*syscall.SysProcAttr)
}

// sandboxCommand wraps argv (argv[0] resolved) in the sandbox launcher.
// Without Landlock it fails closed with sandbox_unavailable unless the
// sandbox was turned off.
func (s *Server) sandboxCommand(argv, env []string, cwd string) (*commandSandbox, error) {
	tmp, err := s.privateTemp()
	if err != nil {
		return nil, err
	}
	env = setEnv(env, "TMPDIR", tmp)
	set := s.opts.Sandbox
	switch set.Mode {
	case "":
		return &commandSandbox{argv: argv, env: env, effective: sandbox.Effective{Mode: sandbox.ModeOff, Reason: "the program embedding fluzo-tool's server configured no sandbox"}}, nil
	case sandbox.ModeOff:
		return &commandSandbox{argv: argv, env: env, effective: sandbox.Effective{Mode: sandbox.ModeOff, Reason: "turned off by configuration (tools.sandbox.mode = \"off\"): the command ran unconfined"}}, nil
	}
	// The launcher, not fluzo-tool, execs the program: check here what the
	// spawn itself would have refused, so it is still spawn_failed rather
	// than a command that ran and exited 1.
	if err := unix.Access(argv[0], unix.X_OK); err != nil {
		return nil, core.Wrap(err, "spawn_failed", "cannot start "+argv[0]+": "+err.Error()).
			WithHint("check the program path and permissions; fluzo-tool does not retry through a shell")
	}
	abi := sandbox.ABI()
	if abi == 0 {
		return nil, sandbox.Unavailable("the kernel offers no Landlock (or it is disabled)")
	}
	plan := sandbox.NewPlan(sandbox.Input{Settings: set, ABI: abi, Workspace: s.root.Dir(), Temp: tmp, Protected: s.protectedPaths(), Env: env, Cwd: cwd})
	eff := sandbox.Effective{Mode: sandbox.ModeLandlock, ABI: abi, Network: plan.Network, Protected: "read_only_mount"}
	var prepare func(*syscall.SysProcAttr)
	switch s.bindMethod(abi) {
	case bindInUserNamespace:
		prepare = sandbox.InUserNamespace
	case bindNone:
		plan.ReadOnly = nil
		eff.Protected = "checked_after"
	}
	eff.Refuses = refusesText(plan, eff.Protected)
	wrapped, err := sandbox.LauncherArgv(s.opts.Launcher, plan, argv)
	if err != nil {
		return nil, err
	}
	return &commandSandbox{argv: wrapped, env: env, effective: eff, prepare: prepare}, nil
}

func refusesText(p *sandbox.Plan, protected string) string {
	t := "writes outside the workspace, its private TMPDIR and the build caches; "
	if protected == "read_only_mount" {
		t += "writes to .git, .fluzo and .fluzodrive; "
	}
	t += "reads of the home directory beyond the toolchains, caches and git/cargo settings"
	if p.Network == sandbox.NetworkDeny && p.HandledNet != 0 {
		t += "; TCP connections and listening sockets"
	}
	t += ". \"Permission denied\", EACCES, EPERM or \"Read-only file system\" from such an action is the sandbox refusing it."
	if protected != "read_only_mount" {
		t += " .git, .fluzo and .fluzodrive are NOT write-protected here (no mount namespace available); changes to them are reported in protected_changed."
	}
	return t
}

// refusalSigns are how programs report an access the sandbox refused.
var refusalSigns = []string{"Permission denied", "Read-only file system", "Operation not permitted", "EACCES", "EPERM", "EROFS"}

// explainRefusals keeps the "refuses" explanation only in the result of a
// command whose output shows a refusal: every other result stays short,
// since each one enters the model's context.
func (b *commandSandbox) explainRefusals(output string) {
	for _, sign := range refusalSigns {
		if strings.Contains(output, sign) {
			return
		}
	}
	b.effective.Refuses = ""
}

// protectedPaths are the absolute paths of the root-level protected names.
func (s *Server) protectedPaths() []string {
	var out []string
	for _, n := range confine.ProtectedNames() {
		out = append(out, filepath.Join(s.root.Dir(), n))
	}
	return out
}

// How the launcher can get the mount namespace its read-only binds need.
const (
	bindNone            = iota // neither way works: protected paths are checked after
	bindDirect                 // this process may unshare a mount namespace (CAP_SYS_ADMIN)
	bindInUserNamespace        // the child starts in its own user namespace
)

// bindMethod settles once how protected paths can be bound read-only.
func (s *Server) bindMethod(abi int) int {
	s.mountsOnce.Do(func() {
		switch {
		case sandbox.MountsWork():
			s.mounts = bindDirect
		case sandbox.UserNamespaceBindsWork(s.opts.Launcher, abi):
			s.mounts = bindInUserNamespace
		default:
			s.mounts = bindNone
		}
	})
	return s.mounts
}

// tempPrefix names the commands' private temporary directories.
const tempPrefix = "fluzo-tool-tmp-"

// privateTemp creates, once per server, the temporary directory its
// commands get as TMPDIR, so one task's commands never see another's
// files (or the user's) in a shared /tmp; Close removes it. The server
// holds a lock on it for its lifetime, so a later server can tell the
// directory of one that was killed (lock free) from a live one's.
func (s *Server) privateTemp() (string, error) {
	s.tmpOnce.Do(func() {
		s.tmpDir, s.tmpErr = os.MkdirTemp("", tempPrefix)
		if s.tmpErr != nil {
			return
		}
		s.tmpLock, s.tmpErr = lockDir(s.tmpDir, unix.LOCK_EX)
	})
	if s.tmpErr != nil {
		return "", core.Wrap(s.tmpErr, core.CodeFailed, "cannot create the commands' private temporary directory").
			WithHint("check that $TMPDIR (or /tmp) exists and is writable")
	}
	return s.tmpDir, nil
}

// lockDir opens dir and takes a non-blocking flock on it.
func lockDir(dir string, how int) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// removeStaleTemps deletes the private temporary directories of servers
// that died without cleaning up (their lock is free); a live server's
// directory stays.
func removeStaleTemps() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	for _, d := range dirs {
		f, err := lockDir(d, unix.LOCK_EX)
		if err != nil {
			continue
		}
		os.RemoveAll(d)
		f.Close()
	}
}

func setEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}
