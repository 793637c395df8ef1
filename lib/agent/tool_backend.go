package agent

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// helloTimeout bounds the handshake: a backend command that never starts
// fluzo-tool (an ssh waiting on a host it cannot reach) fails the task's
// setup instead of hanging it.
const helloTimeout = 60 * time.Second

// backendSpec is how the owner reaches its tool backend: the command
// (tools.backend, or the local fluzo-tool serve in the workspace), its
// whole environment, and the settings sent with the handshake.
type backendSpec struct {
	Argv []string
	// Remote: the command is the configured tools.backend, not the
	// local child.
	Remote   bool
	Env      []string
	Settings *tools.Settings
	// Lock is the owner's workspace lock, which a local fluzo-tool keeps
	// held while its commands live (nil: none; never sent to a remote
	// command, whose fluzo-tool locks its own root).
	Lock *os.File
}

// toolBackend describes the backend of w's configuration. The local one
// is the fluzo-tool beside this executable (else the one on PATH).
func (w *Owner) toolBackend(env []string) *backendSpec {
	spec, _ := w.taskBackend(w.Root, nil, false)
	spec.Env = env
	if spec.Remote {
		spec.Env = withTransportEnv(env, os.LookupEnv)
	}
	return spec
}

// taskBackend is the backend of one task rooted at root (the workspace or
// the task's worktree), whose commands may also read readable. A worktree
// lives in the owner's repository, so it needs the local backend.
func (w *Owner) taskBackend(root string, readable []string, inWorktree bool) (*backendSpec, error) {
	return backendSpecFor(w.Config, root, readable, inWorktree)
}

// backendSpecFor is taskBackend for the configuration cfg (the owner's
// open starts an in-place task's backend before the owner exists).
func backendSpecFor(cfg *config.Config, root string, readable []string, inWorktree bool) (*backendSpec, error) {
	env := scrubbedToolEnv(cfg, os.Environ())
	spec := &backendSpec{Env: env, Settings: toolSettings(cfg)}
	spec.Settings.SandboxRead = append(spec.Settings.SandboxRead, readable...)
	if argv := cfg.Strings("tools.backend"); len(argv) > 0 {
		if inWorktree {
			return nil, core.Errorf(core.CodeConfigurationRequired, "a worktree task runs in this repository, but tools.backend names another backend (%s)", argv[0]).
				WithHint("drop --worktree, or run without tools.backend / --backend")
		}
		spec.Argv, spec.Remote = argv, true
		spec.Env = withTransportEnv(env, os.LookupEnv)
		return spec, nil
	}
	bin := sandbox.SiblingLauncher()
	if bin == "" {
		bin = "fluzo-tool"
	}
	spec.Argv = []string{bin, "serve", "--root", root}
	return spec, nil
}

// transportEnv are the variables a backend command needs to reach its
// host (the ssh agent's socket, the Kubernetes configuration). They look
// like credentials, so the local fluzo-tool never gets them; a configured
// command does, since it is the process that connects. Provider keys stay
// scrubbed, and ssh, kubectl and docker pass none of these to the remote
// fluzo-tool.
var transportEnv = []string{"SSH_AUTH_SOCK", "KUBECONFIG"}

func withTransportEnv(env []string, lookup func(string) (string, bool)) []string {
	out := append([]string(nil), env...)
	for _, k := range transportEnv {
		if v, ok := lookup(k); ok && !slices.ContainsFunc(out, func(kv string) bool { return strings.HasPrefix(kv, k+"=") }) {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// start runs the command and opens the session. A backend that cannot be
// started, ends before answering, or speaks another protocol revision is
// stopped again and named in the error.
func (b *backendSpec) start(ctx context.Context) (*tools.Client, tools.Hello, error) {
	c, err := b.launch(ctx)
	if err != nil {
		return nil, tools.Hello{}, err
	}
	return b.handshake(ctx, c)
}

// launch runs the command; its session is not open until handshake.
func (b *backendSpec) launch(ctx context.Context) (*tools.Client, error) {
	argv, lock := b.Argv, b.Lock
	if b.Remote {
		lock = nil
	} else if lock != nil {
		// ExtraFiles[0] is the child's descriptor 3.
		argv = append(append([]string{}, argv...), "--hold-lock-fd", "3")
	}
	return tools.StartCommandHolding(ctx, argv, b.Env, lock)
}

// handshake opens the session of a launched backend (see start).
func (b *backendSpec) handshake(ctx context.Context, c *tools.Client) (*tools.Client, tools.Hello, error) {
	hctx, cancel := context.WithTimeout(ctx, helloTimeout)
	defer cancel()
	hello, err := c.Hello(hctx, b.Settings)
	if err == nil {
		return c, hello, nil
	}
	c.KillServer()
	c.Close()
	var transport *tools.TransportError
	switch {
	case hctx.Err() != nil && ctx.Err() == nil:
		err = core.Errorf(core.CodeFailed, "the tool backend %q did not answer the handshake within %s", b.Argv[0], helloTimeout).
			WithHint("check that the command starts 'fluzo-tool serve' (try it in a terminal) and that it needs no prompt")
	case errors.As(err, &transport):
		fe := core.AsError(transport.Err)
		err = core.Errorf(core.CodeFailed, "the tool backend %q ended before its handshake", b.Argv[0]).WithHint("%s", fe.Hint)
	}
	return nil, tools.Hello{}, core.AsError(err).With("backend", b.Argv[0])
}

// toolSettings are the [tools.shell], capture and [tools.sandbox]
// settings fluzo-tool applies to the commands it runs.
func toolSettings(c *config.Config) *tools.Settings {
	sb := sandboxSettings(c)
	return &tools.Settings{
		GraceSeconds: c.Seconds("tools.shell.termination_grace_seconds").Seconds(),
		CaptureLimit: int(c.Int("context.tool_capture_max_bytes")),
		Env:          c.StringMap("tools.shell.env"),
		InheritEnv:   c.Strings("tools.shell.inherit_env"),
		Sandbox:      sb.Mode, SandboxNet: sb.Network, SandboxWrite: sb.Writable, SandboxRead: sb.Readable,
	}
}
