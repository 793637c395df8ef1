package mcp

import (
	"strings"

	"github.com/josecorral/fluzo/lib/grantspec"
)

// Prefix starts every model-visible MCP tool name.
const Prefix = "mcp__"

// maxModelName is the longest function name OpenAI-compatible endpoints
// accept.
const maxModelName = 64

// ModelName is the model-visible name of server's tool: mcp__NAME__TOOL,
// with characters a function name cannot hold replaced by '_' (the rule
// policy's mcp:SERVER/TOOL targets share). ok is
// false when the name would be too long to offer.
func ModelName(server, tool string) (string, bool) {
	n := Prefix + server + "__" + grantspec.MCPToolPart(tool)
	return n, len(n) <= maxModelName
}

// IsModelName reports whether a model-visible tool name is an MCP tool's.
func IsModelName(name string) bool { return strings.HasPrefix(name, Prefix) }

// SplitModelName returns the server part of mcp__NAME__TOOL and the rest
// (the possibly rewritten tool part).
func SplitModelName(name string) (server, tool string, ok bool) {
	if !IsModelName(name) {
		return "", "", false
	}
	server, tool, ok = strings.Cut(strings.TrimPrefix(name, Prefix), "__")
	return server, tool, ok && server != "" && tool != ""
}
