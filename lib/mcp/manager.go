package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// Reasons recorded with failed and unknown MCP outcomes.
const (
	ReasonServerLost = "mcp_server_lost"
	ReasonToolError  = "mcp_tool_error"
	ReasonCallFailed = "mcp_call_failed"
	ReasonNoSuchTool = "mcp_unknown_tool"
)

// Options configure a Manager.
type Options struct {
	// Root is the workspace root; stdio servers' cwd is relative to it.
	Root string
	// Environ is the parent environment children are built from
	// (os.Environ() when nil); Getenv resolves secret references
	// (os.Getenv when nil).
	Environ []string
	Getenv  func(string) string
	// Record receives the manager's events (core.EvMCP*), in the
	// caller's goroutine.
	Record func(typ string, data any)
	// Sandbox confines stdio servers as exec and shell commands are
	// ([tools.sandbox]); Launcher is the fluzo-tool binary whose
	// sandbox-exec enforces it (default: the fluzo-tool next to this
	// executable, the one the agent runs as its tool backend). Mode ""
	// starts them unconfined (an embedder that configured none).
	Sandbox  sandbox.Settings
	Launcher string
}

// Manager owns the configured servers' sessions for one run.
type Manager struct {
	opts    Options
	binds   sandbox.Binds
	servers []*server
	byModel map[string]*Tool
}

// Open starts every enabled server. A server that cannot start is
// recorded (mcp.server.failed) and offers no tools; the others work.
// Open itself fails only when ctx ends.
func Open(ctx context.Context, servers []config.MCPServer, o Options) (*Manager, error) {
	if o.Environ == nil {
		o.Environ = os.Environ()
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Record == nil {
		o.Record = func(string, any) {}
	}
	if o.Launcher == "" {
		o.Launcher = sandbox.SiblingLauncher()
	}
	m := &Manager{opts: o}
	for _, c := range servers {
		if !c.Enabled {
			continue
		}
		s := &server{cfg: c}
		m.servers = append(m.servers, s)
		if err := s.connect(ctx, m.opts, &m.binds); err != nil {
			m.failed(s, err)
			if ctx.Err() != nil {
				m.Close()
				return nil, ctx.Err()
			}
			continue
		}
		o.Record(core.EvMCPServerStarted, s.started())
	}
	m.index()
	return m, nil
}

func (m *Manager) failed(s *server, err error) {
	fe := core.AsError(err)
	m.opts.Record(core.EvMCPServerFailed, map[string]any{"server": s.cfg.Name, "error": fe})
}

func (m *Manager) index() {
	m.byModel = map[string]*Tool{}
	for _, s := range m.servers {
		for i := range s.tools {
			m.byModel[s.tools[i].Model] = &s.tools[i]
		}
	}
}

// Tools returns the offered tools of every running server.
func (m *Manager) Tools() []Tool {
	var out []Tool
	for _, s := range m.servers {
		out = append(out, s.tools...)
	}
	return out
}

// Schemas renders the offered tools as OpenAI function-tool definitions.
func (m *Manager) Schemas() []json.RawMessage {
	var out []json.RawMessage
	for _, t := range m.Tools() {
		b, _ := core.MarshalVerbatim(schema{Type: "function", Function: function{Name: t.Model, Description: t.Description, Parameters: t.Parameters}})
		out = append(out, b)
	}
	return out
}

// Sync applies announced tool-list changes (re-listing those servers)
// and reports whether any list changed. It runs between turns, so a
// request never sees a half-updated list.
func (m *Manager) Sync(ctx context.Context) bool {
	changed := false
	for _, s := range m.servers {
		if !s.alive() || !s.changed.Swap(false) {
			continue
		}
		before := s.started()["tools"]
		lctx, cancel := context.WithTimeout(ctx, time.Duration(s.cfg.StartupSeconds)*time.Second)
		err := s.list(lctx)
		cancel()
		if err != nil {
			m.opts.Record(core.EvMCPToolsChanged, map[string]any{"server": s.cfg.Name, "error": core.Errorf(ReasonCallFailed, "tools/list failed: %s", describeErr(err))})
			continue
		}
		after := s.started()["tools"]
		if reflect.DeepEqual(before, after) {
			continue // announced, but the offered list is the same
		}
		changed = true
		m.opts.Record(core.EvMCPToolsChanged, map[string]any{"server": s.cfg.Name, "tools": after, "skipped": s.skipped})
	}
	if changed {
		m.index()
	}
	return changed
}

// Lookup returns the offered tool the model calls by name.
func (m *Manager) Lookup(model string) (Tool, bool) {
	t, ok := m.byModel[model]
	if !ok {
		return Tool{}, false
	}
	return *t, true
}

func (m *Manager) serverOf(name string) *server {
	for _, s := range m.servers {
		if s.cfg.Name == name {
			return s
		}
	}
	return nil
}

// Call runs one authorized tools/call. The caller has evaluated policy
// and committed the intent. A server found dead before the request is
// restarted within its bound; a server lost while the request was out
// makes the outcome unknown (never retried here), and is then
// restarted for later calls.
func (m *Manager) Call(ctx context.Context, model string, args json.RawMessage) Outcome {
	t, ok := m.Lookup(model)
	if !ok {
		return Outcome{Error: core.Errorf(core.CodeInvalidRequest, "no MCP tool named %s is offered", model).With("reason", ReasonNoSuchTool).
			WithHint("call one of the mcp__ tools listed in the tool schemas")}
	}
	s := m.serverOf(t.Server)
	if !s.alive() && !m.restart(ctx, s, "") {
		return Outcome{Error: core.Errorf(core.CodeFailed, "not run: MCP server %q is not running and its restarts are used up", s.cfg.Name).
			With("reason", ReasonServerLost).With("server", s.cfg.Name).WithHint("check the server (fluzo-admit mcp tools %s), then resume the task", s.cfg.Name)}
	}
	arguments := map[string]any{}
	if len(args) > 0 && string(args) != "null" {
		if err := json.Unmarshal(args, &arguments); err != nil {
			return Outcome{Error: core.Errorf(core.CodeInvalidRequest, "the arguments of %s are not a JSON object", model).
				With("reason", ReasonCallFailed).WithHint("send an object of the tool's parameters")}
		}
	}
	cctx, cancel := context.WithTimeout(ctx, time.Duration(s.cfg.CallSeconds)*time.Second)
	defer cancel()
	res, err := s.session.callTool(cctx, t.Name, arguments)
	if err != nil {
		return m.callFailed(ctx, s, model, err, cctx.Err() != nil)
	}
	r := convert(res)
	body, _ := core.MarshalVerbatim(r)
	if r.IsError {
		return Outcome{Result: body, Error: core.Errorf(ReasonToolError, "%s reported an error: %s", model, r.errorText()).With("reason", ReasonToolError)}
	}
	return Outcome{OK: true, Result: body}
}

// callFailed classifies a tools/call that got no result. A JSON-RPC
// error is the server's answer (it refused the call): failed. Anything
// else — the connection or process ended, the deadline or a cancel cut
// the wait — leaves the outcome unknown.
func (m *Manager) callFailed(ctx context.Context, s *server, model string, err error, timedOut bool) Outcome {
	var werr *rpcError
	if errors.As(err, &werr) {
		return Outcome{Error: core.Errorf(ReasonCallFailed, "%s: the server refused the call: %s", model, describeErr(err)).With("reason", ReasonCallFailed)}
	}
	if ctx.Err() == nil && !timedOut {
		s.settle()
	}
	why := "the MCP server " + s.cfg.Name + " was lost while the call ran"
	switch {
	case s.alive() && ctx.Err() != nil:
		why = "the call was cancelled while it ran"
	case s.alive() && timedOut:
		why = "no answer within call_timeout_seconds"
	}
	out := Outcome{Unknown: true, Error: core.Errorf(core.CodeUnknownOutcome,
		"outcome unknown: %s; it may have taken effect, so check before repeating it", why).With("reason", ReasonServerLost).With("server", s.cfg.Name)}
	if !s.alive() {
		m.restart(context.WithoutCancel(ctx), s, model)
	}
	return out
}

// restart replaces a lost server's session once more if its bound
// allows; it records the loss and the restart (or why there is none).
func (m *Manager) restart(ctx context.Context, s *server, during string) bool {
	lost := map[string]any{"server": s.cfg.Name, "restarts": s.restarts, "max_restarts": s.cfg.MaxRestarts}
	if during != "" {
		lost["during_call"] = during
	}
	if tail := s.stderrTail(); tail != "" {
		lost["stderr_tail"] = tail
	}
	m.opts.Record(core.EvMCPServerLost, lost)
	s.stop()
	if s.restarts >= s.cfg.MaxRestarts {
		s.tools = nil
		m.index()
		return false
	}
	s.restarts++
	if err := s.connect(ctx, m.opts, &m.binds); err != nil {
		m.failed(s, err)
		s.tools = nil
		m.index()
		return false
	}
	m.index()
	d := s.started()
	d["restarts"] = s.restarts
	m.opts.Record(core.EvMCPServerRestarted, d)
	return true
}

// Close ends every session and stdio process group.
func (m *Manager) Close() {
	for _, s := range m.servers {
		s.stop()
	}
}

// SandboxSettings are the [tools.sandbox] settings stdio servers run
// under, read where exec and shell read them.
func SandboxSettings(c *config.Config) sandbox.Settings {
	return sandbox.Settings{Mode: c.String("tools.sandbox.mode"), Network: c.String("tools.sandbox.network"),
		Writable: c.Strings("tools.sandbox.writable"), Readable: c.Strings("tools.sandbox.readable")}
}
