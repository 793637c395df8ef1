package tools

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
	"github.com/josecorral/fluzo/lib/tools/proc"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// ProtocolVersion is the revision of the tool protocol this fluzo-tool
// speaks beyond the record version "v": which tools and queries exist and
// what they answer. A runtime refuses a backend that announces another
// one, because a remote fluzo-tool of a different release could answer
// the same request differently.
const ProtocolVersion = 2

// ProtocolEnv is a test seam: a fluzo-tool started with it announces
// that protocol revision in its hello instead of its own, so the refusal
// of a mismatched backend can be shown without building an old release.
const ProtocolEnv = "FLUZO_TEST_TOOL_PROTOCOL"

// CodeProtocolMismatch is the error of a backend whose protocol revision
// is not the caller's.
const CodeProtocolMismatch core.Code = "protocol_mismatch"

// Settings are the runtime's configuration of the server's commands,
// sent with the hello rather than as flags, so that a backend command
// such as ssh (which hands its arguments to a remote shell) never has to
// carry them as words.
type Settings struct {
	GraceSeconds float64           `json:"grace_seconds,omitempty"`
	CaptureLimit int               `json:"capture_limit,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	InheritEnv   []string          `json:"inherit_env,omitempty"`
	Sandbox      string            `json:"sandbox,omitempty"`
	SandboxNet   string            `json:"sandbox_network,omitempty"`
	SandboxWrite []string          `json:"sandbox_write,omitempty"`
	SandboxRead  []string          `json:"sandbox_read,omitempty"`
}

// HelloArgs open a session: the caller's protocol revision and, when
// given, the settings to apply before any tool runs.
type HelloArgs struct {
	Protocol int       `json:"protocol"`
	Settings *Settings `json:"settings,omitempty"`
}

// Hello is the backend's identity: who answers (protocol, release, host)
// and which workspace (its resolved root, that directory's device and
// inode, and the repository's top level, HEAD and branch).
type Hello struct {
	Protocol   int        `json:"protocol"`
	Version    string     `json:"version"`
	Host       string     `json:"host"`
	Root       string     `json:"root"`
	Device     uint64     `json:"device"`
	Inode      uint64     `json:"inode"`
	Repository Repository `json:"repository"`
	// Sandbox is what the commands' sandbox resolves to on the backend's
	// kernel (after the hello's settings), not on the caller's.
	Sandbox sandbox.Resolved `json:"sandbox"`
}

// Repository identifies the git repository the root is in.
type Repository struct {
	TopLevel string `json:"top_level"`
	Head     string `json:"head,omitempty"`
	Branch   string `json:"branch,omitempty"`
}

// announcedProtocol is the revision this server says it speaks.
func announcedProtocol() int {
	if v, err := strconv.Atoi(os.Getenv(ProtocolEnv)); err == nil && v > 0 {
		return v
	}
	return ProtocolVersion
}

func (s *Server) hello(ctx context.Context, raw json.RawMessage) (any, error) {
	var a HelloArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	mine := announcedProtocol()
	if a.Protocol != mine {
		return nil, MismatchError(a.Protocol, mine)
	}
	if err := s.lockRoot(); err != nil {
		return nil, err
	}
	if a.Settings != nil {
		if err := s.configure(*a.Settings); err != nil {
			return nil, err
		}
	}
	return s.identity(ctx, mine), nil
}

// MismatchError says that the caller and the backend speak different
// protocol revisions, both named, and how to make them agree.
func MismatchError(caller, backend int) *core.Error {
	return core.Errorf(CodeProtocolMismatch, "the tool backend speaks tool protocol %d; this runtime speaks %d", backend, caller).
		WithHint("install the same Fluzo release on both sides (compare 'fluzo-tool --version' with 'fluzo-agent --version')").
		With("runtime_protocol", caller).With("backend_protocol", backend)
}

func (s *Server) identity(ctx context.Context, protocol int) Hello {
	h := Hello{Protocol: protocol, Version: core.Version, Root: s.root.Dir(), Sandbox: sandbox.Resolve(s.opts.Sandbox)}
	h.Host, _ = os.Hostname()
	if fi, err := os.Stat(s.root.Dir()); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			h.Device, h.Inode = uint64(st.Dev), st.Ino
		}
	}
	env := s.childEnvOrBaseline()
	h.Repository.TopLevel, h.Repository.Head, h.Repository.Branch = gitx.Head(ctx, s.root.Dir(), env, true)
	return h
}

// configure applies the runtime's settings. Only a fresh session may be
// configured: a tool that already ran did so under the old settings.
func (s *Server) configure(set Settings) error {
	s.mu.Lock()
	served := s.served
	s.mu.Unlock()
	if served > 0 {
		return core.Errorf(core.CodeInvalidRequest, "hello with settings came after %d tool requests", served).
			WithHint("send hello first, before any tool request")
	}
	opts := s.opts
	if set.GraceSeconds > 0 {
		opts.Grace = time.Duration(set.GraceSeconds * float64(time.Second))
	}
	if set.CaptureLimit > 0 {
		opts.CaptureLimit = set.CaptureLimit
	}
	opts.Env = proc.EnvPolicy{Set: set.Env, Inherit: set.InheritEnv}
	if set.Sandbox != "" {
		opts.Sandbox = sandbox.Settings{Mode: set.Sandbox, Network: set.SandboxNet, Writable: set.SandboxWrite, Readable: set.SandboxRead}
	}
	if err := opts.Env.Validate(); err != nil {
		return err
	}
	if err := opts.Sandbox.Validate(); err != nil {
		return err
	}
	if opts.Launcher == "" && opts.Sandbox.Mode == sandbox.ModeLandlock {
		exe, err := os.Executable()
		if err != nil {
			return sandbox.Unavailable("cannot find fluzo-tool's own executable to launch commands with: " + err.Error())
		}
		opts.Launcher = exe
	}
	if strings.TrimSpace(opts.Sandbox.Network) == "" && opts.Sandbox.Mode != "" {
		opts.Sandbox.Network = sandbox.NetworkDeny
	}
	s.opts = opts
	return nil
}
