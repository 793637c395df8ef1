package grantspec

import (
	"regexp"
	"strings"
)

// The naming rule of MCP tools, shared by the MCP client (which offers
// mcp__SERVER__TOOL to the model) and policy (which matches grants and
// denies on SERVER/TOOL), so both always mean the same tool.

// A bounded repeat such as {1,64} compiles into one copy per repetition
// at every process start, so lengths are checked apart.
var (
	mcpToolRewrite  = regexp.MustCompile(`[^A-Za-z0-9_-]`)
	mcpModelPartRaw = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// maxMCPServerName is the longest server name (in bytes, all ASCII).
const maxMCPServerName = 64

// MCPToolPart is the TOOL part of a model-visible name: characters a
// function name cannot hold become '_'.
func MCPToolPart(tool string) string { return mcpToolRewrite.ReplaceAllString(tool, "_") }

// MCPTarget is the policy target of server's tool: "SERVER/TOOL".
func MCPTarget(server, tool string) string { return server + "/" + MCPToolPart(tool) }

// CheckMCPTarget returns "" for a valid SERVER/TOOL, else the problem.
func CheckMCPTarget(t string) string {
	server, tool, ok := strings.Cut(t, "/")
	if !ok || len(server) > maxMCPServerName || !mcpModelPartRaw.MatchString(server) || strings.Contains(server, "__") || !mcpModelPartRaw.MatchString(tool) {
		return "mcp needs SERVER/TOOL, e.g. mcp:everything/echo (TOOL as in mcp__SERVER__TOOL)"
	}
	return ""
}
