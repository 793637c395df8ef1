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
)

// kindOf maps fluzo-tool's tool names onto card renderers; git_* tools
// share one. Anything else is generic.
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
	return kindGeneric
}
