package sandbox

import (
	"path/filepath"
	"sync"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"golang.org/x/sys/unix"
)

// Request is one program to start confined: fluzo-tool's exec and shell
// commands and the agent's stdio MCP servers are all wrapped by Wrap, so
// they run under one rule.
type Request struct {
	Settings Settings
	// Launcher is the fluzo-tool binary whose sandbox-exec subcommand
	// enforces the plan.
	Launcher string
	// Argv is the program (argv[0] an absolute path) and its arguments;
	// Env its environment, TMPDIR already set to Temp.
	Argv, Env []string
	// Workspace is the absolute workspace root (its protected names are
	// bound read-only); Temp the program's private temporary directory;
	// Cwd its absolute working directory.
	Workspace, Temp, Cwd string
	// Binds settles how protected paths are bound read-only; one per
	// owner, so the probes run once.
	Binds *Binds
	// Unset explains the unconfined start when Settings.Mode is ""
	// (the embedder configured no sandbox).
	Unset string
	// Control says the spawn gives the launcher a control socket
	// (proc.Spec.Reaper): the launcher then reports the command's status
	// there and waits to be released, so fluzo-tool can sweep what the
	// command left in its namespace first.
	Control bool
}

// Command is a confined start: the argv to spawn (the launcher's, when
// sandboxed), the environment, the effective sandbox to report and the
// namespaces to add to the spawn (nil: none).
type Command struct {
	Argv      []string
	Env       []string
	Effective Effective
	Prepare   func(*syscall.SysProcAttr)
	// Control: the spawn must give the launcher its control socket
	// (proc.Spec.Reaper), as Request.Control asked.
	Control bool
}

// Wrap wraps r.Argv in the sandbox launcher. Without Landlock it fails
// closed with sandbox_unavailable unless the sandbox was turned off.
func Wrap(r Request) (*Command, error) {
	switch r.Settings.Mode {
	case "":
		return &Command{Argv: r.Argv, Env: r.Env, Effective: Effective{Mode: ModeOff, Reason: r.Unset}}, nil
	case ModeOff:
		return &Command{Argv: r.Argv, Env: r.Env, Effective: Effective{Mode: ModeOff, Reason: "turned off by configuration (tools.sandbox.mode = \"off\"): the command ran unconfined"}}, nil
	}
	// The launcher, not the caller, execs the program: check here what the
	// spawn itself would have refused, so it is still spawn_failed rather
	// than a program that ran and exited 1.
	if err := unix.Access(r.Argv[0], unix.X_OK); err != nil {
		return nil, core.Wrap(err, "spawn_failed", "cannot start "+r.Argv[0]+": "+err.Error()).
			WithHint("check the program path and permissions; it is not retried through a shell")
	}
	abi := ABI()
	if abi == 0 {
		return nil, Unavailable("the kernel offers no Landlock (or it is disabled)")
	}
	if r.Launcher == "" {
		return nil, Unavailable("no fluzo-tool binary was found to launch it with (it is looked for next to this executable)")
	}
	plan := NewPlan(Input{Settings: r.Settings, ABI: abi, Workspace: r.Workspace, Temp: r.Temp, Protected: ProtectedPaths(r.Workspace), Env: r.Env, Cwd: r.Cwd})
	eff := Effective{Mode: ModeLandlock, ABI: abi, Network: plan.Network, Protected: "read_only_mount"}
	plan.Control = r.Control
	// Every command runs in a PID namespace of its own whose init is the
	// launcher (see reaper.go); the same privilege makes it and the mount
	// namespace of the read-only binds, so a machine that allows neither
	// way fails closed.
	prepare := inPIDNamespace
	switch r.Binds.method(r.Launcher, abi) {
	case bindInUserNamespace:
		prepare = InUserNamespace
	case bindNone:
		return nil, Unavailable("neither this process (no CAP_SYS_ADMIN) nor a user namespace of its own (refused here) can give the command a PID and mount namespace")
	}
	eff.Refuses = refusesText(plan)
	wrapped, err := LauncherArgv(r.Launcher, plan, r.Argv)
	if err != nil {
		return nil, err
	}
	return &Command{Argv: wrapped, Env: r.Env, Effective: eff, Prepare: prepare, Control: r.Control}, nil
}

func refusesText(p *Plan) string {
	t := "writes outside the workspace, its private TMPDIR and the build caches; "
	t += "writes to .git, .fluzo and .fluzodrive; "
	t += "reads of the home directory beyond the toolchains, caches and git/cargo settings"
	if p.Network == NetworkDeny && p.HandledNet != 0 {
		t += "; TCP connections and listening sockets"
	}
	t += ". \"Permission denied\", EACCES, EPERM or \"Read-only file system\" from such an action is the sandbox refusing it."
	return t
}

// ProtectedPaths are the absolute paths of the root-level protected names
// of a workspace.
func ProtectedPaths(workspace string) []string {
	var out []string
	for _, n := range confine.ProtectedNames() {
		out = append(out, filepath.Join(workspace, n))
	}
	return out
}

// inPIDNamespace starts the launcher as the init of a new PID namespace
// (this process may create one: it holds CAP_SYS_ADMIN).
func inPIDNamespace(a *syscall.SysProcAttr) { a.Cloneflags |= syscall.CLONE_NEWPID }

// How the launcher can get the PID namespace it is init of and the mount
// namespace of its read-only binds and /proc.
const (
	bindNone            = iota // neither way works: commands are refused
	bindDirect                 // this process may unshare a mount namespace (CAP_SYS_ADMIN)
	bindInUserNamespace        // the child starts in its own user namespace
)

// Binds settles once how protected paths can be bound read-only (the
// probes start processes; their answer does not change). A nil *Binds
// probes on every call.
type Binds struct {
	once   sync.Once
	chosen int
}

func (b *Binds) method(launcher string, abi int) int {
	if b == nil {
		return probeBinds(launcher, abi)
	}
	b.once.Do(func() { b.chosen = probeBinds(launcher, abi) })
	return b.chosen
}

func probeBinds(launcher string, abi int) int {
	switch {
	case MountsWork():
		return bindDirect
	case UserNamespaceBindsWork(launcher, abi):
		return bindInUserNamespace
	default:
		return bindNone
	}
}
