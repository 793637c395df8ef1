package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/proc"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
	"golang.org/x/sys/unix"
)

// maxStderrBytes bounds what is kept of a server's stderr (for the
// failure event of a server that dies).
const maxStderrBytes = 4 << 10

// stdioChild is a stdio server process run under the contract of every
// child Fluzo starts: its own session and process group, no controlling
// terminal, an explicit environment (lib/tools/proc's baseline, no
// provider or telemetry secrets unless referenced), the sandbox exec and
// shell commands run under (sandbox.Wrap, with the same settings), the
// parent's death kills it, and closing it ends the whole group.
type stdioChild struct {
	cmd    *exec.Cmd
	stderr *tailBuffer
	// sandbox is the confinement it runs under; tmp its private TMPDIR.
	sandbox sandbox.Effective
	tmp     string
}

// newStdioChild resolves the server's program, environment and sandbox;
// nothing runs until the transport connects.
func newStdioChild(o Options, binds *sandbox.Binds, s config.MCPServer) (*stdioChild, error) {
	env, err := childEnv(s, o.Environ, o.Getenv)
	if err != nil {
		return nil, err
	}
	bin, err := proc.LookPath(s.Command[0], env)
	if err != nil {
		return nil, core.Errorf(core.CodeConfigurationRequired, "MCP server %q: cannot find %s on PATH", s.Name, s.Command[0]).
			With("key", "mcp.servers."+s.Name+".command").WithHint("install it, or give its absolute path in command")
	}
	// Its own TMPDIR, as a command gets: the sandbox lets it write there
	// and not in a /tmp shared with other tasks.
	tmp, err := os.MkdirTemp("", "fluzo-mcp-tmp-")
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot create the MCP server's private temporary directory").
			WithHint("check that $TMPDIR (or /tmp) exists and is writable")
	}
	dir := filepath.Join(o.Root, s.Cwd)
	box, err := sandbox.Wrap(sandbox.Request{Settings: o.Sandbox, Launcher: o.Launcher, Argv: append([]string{bin}, s.Command[1:]...),
		Env: setEnv(env, "TMPDIR", tmp), Workspace: o.Root, Temp: tmp, Cwd: dir, Binds: binds,
		Unset: "the program embedding the MCP client configured no sandbox"})
	if err != nil {
		os.RemoveAll(tmp)
		fe := core.AsError(err)
		if fe.Code == sandbox.CodeUnavailable {
			return nil, fe.With("server", s.Name)
		}
		// The launcher execs the program; a program that cannot run is
		// refused here, and is a failed start like any other.
		return nil, core.Errorf("mcp_server_failed", "MCP server %q did not start: %s", s.Name, fe.Message).With("server", s.Name).
			With("key", "mcp.servers."+s.Name+".command").WithHint("check the program path and permissions in mcp.servers.%s.command", s.Name)
	}
	cmd := &exec.Cmd{Path: box.Argv[0], Args: box.Argv, Env: box.Env, Dir: dir}
	// Setsid: own session and group, no controlling terminal. Pdeathsig:
	// an owner that dies (even by SIGKILL) takes its servers with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if box.Prepare != nil {
		box.Prepare(cmd.SysProcAttr)
	}
	cmd.WaitDelay = 2 * time.Second
	c := &stdioChild{cmd: cmd, stderr: &tailBuffer{max: maxStderrBytes}, sandbox: box.Effective, tmp: tmp}
	cmd.Stderr = c.stderr
	return c, nil
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

// childEnv is the server's environment: the shared child baseline, the
// configured names and literals, and secrets resolved from the
// variables the configuration names (never stored anywhere).
func childEnv(s config.MCPServer, environ []string, getenv func(string) string) ([]string, error) {
	pol := proc.EnvPolicy{Set: s.Env, Inherit: s.InheritEnv}
	if err := pol.Validate(); err != nil {
		return nil, core.AsError(err).With("key", "mcp.servers."+s.Name+".inherit_env")
	}
	secrets := map[string]string{}
	for name, ref := range s.SecretEnv {
		v := getenv(ref)
		if v == "" {
			return nil, core.Errorf(core.CodeConfigurationRequired, "MCP server %q needs the environment variable %s (for %s), which is empty", s.Name, ref, name).
				With("key", "mcp.servers."+s.Name+".secret_env").WithHint("export %s before running Fluzo", ref)
		}
		secrets[name] = v
	}
	return proc.Build(environ, pol, secrets)
}

// start runs the server; its stdin and stdout are the connection.
func (c *stdioChild) start() (conn, error) { return startStdio(c.cmd) }

// pid is the server's pid (also its group id), 0 before it started.
func (c *stdioChild) pid() int {
	if c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// killGroup ends whatever is left of the server's process group (the
// connection's close already ended and reaped the leader), then removes
// its private TMPDIR.
func (c *stdioChild) killGroup() {
	if pid := c.pid(); pid > 0 {
		unix.Kill(-pid, unix.SIGKILL)
	}
	os.RemoveAll(c.tmp)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte{}, t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
