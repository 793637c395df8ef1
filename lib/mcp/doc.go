// Package mcp is Fluzo's MCP client: it starts the configured
// [mcp.servers.NAME] (stdio children under the same process contract as
// commands, or streamable HTTP endpoints), negotiates the protocol with
// each, and offers their tools to the model as mcp__NAME__TOOL with
// sanitized, size-bounded descriptions. It does not authorize anything:
// the agent evaluates every call through lib/policy and journals it
// before Call is reached. Server-declared hints (read-only, destructive)
// are shown, never trusted.
//
// The protocol is spoken here (session.go; conn_stdio.go and
// conn_http.go are the transports): the client needs a small part of it,
// and the reference SDK cost every fluzo-agent run 1.8 MiB of binary and
// its package initialisation, MCP configured or not (wire.go).
//
// The Manager is driven from one goroutine (the agent loop): Open, Sync,
// Call and Close report what happened through the Record callback in the
// caller's goroutine, so durable events keep the loop's order.
package mcp
