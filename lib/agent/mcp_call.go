package agent

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/mcp"
	"github.com/josecorral/fluzo/lib/policy"
)

// This file is the agent's seam to MCP servers (lib/mcp). Their calls go
// through the same lifecycle as fluzo-tool's — policy, durable intent,
// dispatch, outcome — and only dispatch differs: a name mcp__NAME__TOOL
// is sent to the server, not to fluzo-tool. Servers start with the
// attempt (before its first request, so their tools are in the context
// from the first turn) and stop when it ends.

// mcpRun is one attempt's MCP state.
type mcpRun struct {
	m *mcp.Manager
	// schemas are fluzo-tool's schemas followed by the MCP tools', as
	// offered now (rebuilt when a server's list changes).
	schemas json.RawMessage
}

// startMCP starts the configured servers; a server that fails is
// recorded and offers nothing, the task goes on with the others.
func (a *run) startMCP(ctx context.Context) error {
	if len(a.MCPServers) == 0 {
		return nil
	}
	rec := context.WithoutCancel(ctx)
	m, err := mcp.Open(ctx, a.MCPServers, mcp.Options{Root: a.Root, Record: func(typ string, data any) { a.record(rec, typ, data) },
		// Stdio servers run in the sandbox exec and shell commands run
		// in, launched by the fluzo-tool the agent starts as its backend.
		Sandbox: a.Sandbox})
	if err != nil {
		return stopped(ctx, err)
	}
	a.mcp = &mcpRun{m: m}
	a.mcp.rebuild(a.Tools.Schemas())
	return nil
}

func (a *run) stopMCP() {
	if a.mcp != nil {
		a.mcp.m.Close()
	}
}

// syncMCP applies announced tool-list changes between turns.
func (a *run) syncMCP(ctx context.Context) {
	if a.mcp != nil && a.mcp.m.Sync(ctx) {
		a.mcp.rebuild(a.Tools.Schemas())
	}
}

func (r *mcpRun) rebuild(base json.RawMessage) {
	var list []json.RawMessage
	json.Unmarshal(base, &list)
	list = append(list, r.m.Schemas()...)
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, s := range list {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(s)
	}
	buf.WriteByte(']')
	r.schemas = buf.Bytes()
}

// toolSchemas are the model-visible tool definitions of this attempt.
func (a *run) toolSchemas() json.RawMessage {
	if a.mcp != nil {
		return a.mcp.schemas
	}
	return a.Tools.Schemas()
}

// dispatchMCP sends one authorized call to its server. A server lost
// while the call ran makes the outcome unknown; the task goes on (the
// model is told), the call is never repeated by the runtime.
func (a *run) dispatchMCP(ctx context.Context, call toolCall) (toolOutcome, error) {
	if a.mcp == nil {
		return toolOutcome{Error: core.Errorf(core.CodeInvalidRequest, "no MCP server is configured, so %s does not exist", call.Name).
			With("reason", mcp.ReasonNoSuchTool)}, nil
	}
	out := a.mcp.m.Call(ctx, call.Name, call.Args)
	res := toolOutcome{OK: out.OK, Unknown: out.Unknown, Result: out.Result, Error: out.Error}
	if ctx.Err() != nil {
		return res, stopped(ctx, ctx.Err())
	}
	return res, nil
}

// mcpHints are the server's claims about an offered MCP tool, for the
// approval display.
func (a *run) mcpHints(tool string) []string {
	if a.mcp == nil {
		return nil
	}
	t, _ := a.mcp.m.Lookup(tool)
	return t.Hints
}

// mcpOperation is the operation policy evaluates for mcp__NAME__TOOL:
// the call's name decides, never what the server says about the tool.
func mcpOperation(tool string) policy.Operation {
	server, part, ok := mcp.SplitModelName(tool)
	if !ok {
		return policy.Operation{Kind: policy.KindMCP, Undecodable: "the name is not mcp__SERVER__TOOL"}
	}
	// A name with characters no offered tool has fails validation: denied.
	return policy.Operation{Kind: policy.KindMCP, Target: server + "/" + part}
}

// mcpServers is the configuration the owner hands each runner.
func mcpServers(cfg *config.Config) []config.MCPServer { return cfg.MCPServers() }
