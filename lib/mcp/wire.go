package mcp

import (
	"encoding/json"
	"fmt"
)

// The client speaks MCP's JSON-RPC 2.0 itself: it needs the handshake,
// tools/list, tools/call, the tools list-changed notification and
// answers to a server's pings — a small part of the protocol, while the
// reference SDK (with its JSON Schema validator, its own JSON package and
// gob) added 1.7 MB to fluzo-agent and 0.35 ms of package
// initialisation to every run, MCP configured or not.

// protocolVersion is the revision the client asks for; a server may
// answer with any of supportedVersions.
const protocolVersion = "2025-11-25"

var supportedVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// message is any JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method only) or a response (ID with Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func (m *message) isResponse() bool { return m.Method == "" && len(m.ID) > 0 }

// rpcError is a JSON-RPC error: the server's refusal of a request.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (JSON-RPC error %d)", e.Message, e.Code) }

// JSON-RPC error codes the client answers with.
const codeMethodNotFound = -32601

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type initializeParams struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ClientInfo      implementation `json:"clientInfo"`
}

type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	ServerInfo      implementation `json:"serverInfo"`
}

// wireTool is one tools/list entry.
type wireTool struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	InputSchema json.RawMessage  `json:"inputSchema"`
	Annotations *toolAnnotations `json:"annotations"`
}

// toolAnnotations are a server's claims about a tool.
type toolAnnotations struct {
	ReadOnlyHint    bool  `json:"readOnlyHint"`
	DestructiveHint *bool `json:"destructiveHint"`
	IdempotentHint  bool  `json:"idempotentHint"`
	OpenWorldHint   *bool `json:"openWorldHint"`
}

type listToolsResult struct {
	Tools      []*wireTool `json:"tools"`
	NextCursor string      `json:"nextCursor"`
}

type callToolParams struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

type callToolResult struct {
	Content           []contentPart   `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// contentPart is one part of a result; Type says which fields apply.
type contentPart struct {
	Type        string            `json:"type"`
	Text        string            `json:"text"`
	Data        string            `json:"data"`
	MIMEType    string            `json:"mimeType"`
	URI         string            `json:"uri"`
	Description string            `json:"description"`
	Resource    *embeddedResource `json:"resource"`
}

type embeddedResource struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	Text     string `json:"text"`
	Blob     string `json:"blob"`
}
