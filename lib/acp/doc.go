// Package acp lets editors drive Fluzo over the Agent Client Protocol
// (JSON-RPC 2.0 on stdio, https://agentclientprotocol.com). It is a client
// of the owner's JSONL application port, like the TUI: it starts
// `fluzo-agent serve` as a child and translates, so policy, the journal,
// budgets, verification, consent and workspace_busy behave exactly as
// they do for every other client. An ACP session is a Fluzo session, a
// prompt is a task, every ask is a session/request_permission, and
// session/load replays the store read-only.
//
// The editor's file-system and terminal capabilities are never used:
// Fluzo's confined tools (fluzo-tool) stay the only way the agent reads
// and writes the workspace, so confinement, version checks and the
// sandbox hold whatever the editor offers.
package acp
