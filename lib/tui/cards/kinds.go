package cards

import "strings"

type kind int

const (
	kindGeneric kind = iota
	kindView
	kindList
	kindGrep
	kindEdit
	kindWrite
	kindProcess
	kindGit
	kindMCP
)

// kindOf maps fluzo-tool's tool names onto card renderers; git_* tools
// share one, and so do MCP servers' mcp__SERVER__TOOL. Anything else is
// generic.
func kindOf(tool string) kind {
	switch tool {
	case "view":
		return kindView
	case "ls", "glob":
		return kindList
	case "grep":
		return kindGrep
	case "edit":
		return kindEdit
	case "write":
		return kindWrite
	case "exec", "shell":
		return kindProcess
	}
	if strings.HasPrefix(tool, "git_") {
		return kindGit
	}
	if strings.HasPrefix(tool, "mcp__") {
		return kindMCP
	}
	return kindGeneric
}
