package mcp

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// clientVersion is what Fluzo says it is in the handshake.
const clientVersion = "1"

// server is one configured server and its live session, if any.
type server struct {
	cfg      config.MCPServer
	session  *session
	child    *stdioChild // nil for http
	done     <-chan struct{}
	changed  atomic.Bool
	tools    []Tool
	skipped  []Skipped
	version  string
	restarts int
	getenv   func(string) string
}

// connect starts (stdio) or reaches (http) the server, negotiates the
// protocol and lists its tools, all within the startup deadline.
func (s *server) connect(ctx context.Context, o Options, binds *sandbox.Binds) error {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(s.cfg.StartupSeconds)*time.Second)
	defer cancel()
	s.getenv = o.Getenv
	var c conn
	var err error
	s.child = nil
	switch s.cfg.Transport {
	case config.MCPHTTP:
		c, err = httpTransport(s.cfg, o.Getenv)
	default:
		var child *stdioChild
		if child, err = newStdioChild(o, binds, s.cfg); err == nil {
			s.child = child
			c, err = child.start()
		}
	}
	if err != nil {
		if s.child != nil {
			s.stop()
			return s.startError(ctx, err)
		}
		return err
	}
	// No roots, sampling or elicitation: a server is given its scope by
	// its configured argv, never by what the client volunteers.
	cs, err := connect(ctx, c, func() { s.changed.Store(true) })
	if err != nil {
		c.close()
		s.stop()
		return s.startError(ctx, err)
	}
	s.session, s.done, s.version = cs, cs.Done(), cs.version
	// The first list is the current one: a change announced during the
	// handshake is already in it.
	s.changed.Store(false)
	if err := s.list(ctx); err != nil {
		s.stop()
		return s.startError(ctx, err)
	}
	return nil
}

// startError types a failed start, with the end of the server's stderr.
func (s *server) startError(ctx context.Context, err error) error {
	msg := "MCP server %q did not start: %s"
	if ctx.Err() != nil {
		msg = "MCP server %q did not complete its handshake within startup_timeout_seconds: %s"
	}
	e := core.Errorf("mcp_server_failed", msg, s.cfg.Name, describeErr(err)).With("server", s.cfg.Name).
		WithHint("run \"fluzo-admit mcp tools %s\" to see the failure; check mcp.servers.%s", s.cfg.Name, s.cfg.Name)
	if tail := s.stderrTail(); tail != "" {
		e = e.With("stderr_tail", tail)
	}
	return e
}

// stderrTail is the end of a stdio server's stderr for durable events:
// the secrets Fluzo handed the server are redacted (a server may print
// its environment), then it is bounded and made terminal-safe.
func (s *server) stderrTail() string {
	if s.child == nil {
		return ""
	}
	text := s.child.stderr.String()
	for _, ref := range s.cfg.SecretEnv {
		if v := s.getenv(ref); v != "" {
			text = strings.ReplaceAll(text, v, "<redacted>")
		}
	}
	t, _ := termsafe.Head(strings.TrimSpace(text), 512)
	return termsafe.Text(t)
}

// describeErr is an error's text made safe to show: a transport's
// error can quote what the server sent.
func describeErr(err error) string {
	if errors.Is(err, errRedirect) || strings.Contains(err.Error(), errRedirect.Error()) {
		return errRedirect.Message
	}
	if fe, ok := err.(*core.Error); ok {
		return fe.Message
	}
	t, _ := termsafe.Head(err.Error(), 300)
	return termsafe.Line(t)
}

// list replaces the offered tools with the server's current list.
func (s *server) list(ctx context.Context) error {
	// A server that never ends its pages stops being asked.
	listed, err := s.session.tools(ctx, 4*maxToolsPerServer)
	if err != nil {
		return err
	}
	s.tools, s.skipped = offer(s.cfg.Name, s.cfg.Tools, listed)
	return nil
}

// alive reports whether the session is still connected.
func (s *server) alive() bool {
	if s.session == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// settle gives a session whose call just broke a moment to be seen
// ending: the reader notices a dead server after the writer does.
func (s *server) settle() {
	if s.session == nil {
		return
	}
	select {
	case <-s.done:
	case <-time.After(2 * time.Second):
	}
}

// stop ends the session and, for stdio, the server's whole process group.
func (s *server) stop() {
	if s.session != nil {
		s.session.Close()
		s.session = nil
	}
	if s.child != nil {
		s.child.killGroup()
	}
}

// started is the event data of a completed start.
func (s *server) started() map[string]any {
	names := make([]string, 0, len(s.tools))
	for _, t := range s.tools {
		names = append(names, t.Model)
	}
	d := map[string]any{"server": s.cfg.Name, "transport": s.cfg.Transport, "protocol_version": s.version, "tools": names}
	if len(s.skipped) > 0 {
		d["skipped"] = s.skipped
	}
	if s.child != nil {
		d["pid"] = s.child.pid()
		d["sandbox"] = s.child.sandbox
	}
	return d
}
