package acp

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// This file knows the shapes of fluzo-tool's arguments and results that
// an editor is shown: a tool call's kind, title, locations and, for
// edits, its diff.

// opInfo is one operation as the port's task query answers it.
type opInfo struct {
	ID     string `json:"id"`
	Tool   string `json:"tool"`
	CallID string `json:"call_id"`
	Args   []byte `json:"args"`   // JSON, which the record carries as base64
	Result []byte `json:"result"` // the tool outcome, likewise
	State  string `json:"state"`
	Rule   string `json:"rule"`
}

// decodeTaskOps reads a task answer's operations, keyed by operation id.
func decodeTaskOps(data json.RawMessage) map[string]opInfo {
	var d struct {
		Operations map[string][]opInfo `json:"operations"`
	}
	out := map[string]opInfo{}
	if json.Unmarshal(data, &d) != nil {
		return out
	}
	for _, list := range d.Operations {
		for _, op := range list {
			out[op.ID] = op
		}
	}
	return out
}

var toolKinds = map[string]sdk.ToolKind{
	"view": sdk.ToolKindRead, "ls": sdk.ToolKindRead, "git_status": sdk.ToolKindRead, "git_diff": sdk.ToolKindRead,
	"git_log": sdk.ToolKindRead, "git_show": sdk.ToolKindRead,
	"glob": sdk.ToolKindSearch, "grep": sdk.ToolKindSearch,
	"write": sdk.ToolKindEdit, "edit": sdk.ToolKindEdit,
	"delete": sdk.ToolKindDelete, "move": sdk.ToolKindMove,
	"exec": sdk.ToolKindExecute, "shell": sdk.ToolKindExecute,
	"git_add": sdk.ToolKindExecute, "git_commit": sdk.ToolKindExecute, "git_push": sdk.ToolKindExecute,
}

func kindOf(tool string) sdk.ToolKind {
	if k, ok := toolKinds[tool]; ok {
		return k
	}
	return sdk.ToolKindOther
}

// toolArgs is the union of the argument fields the editor is shown.
type toolArgs struct {
	Path      string   `json:"path"`
	Pattern   string   `json:"pattern"`
	Argv      []string `json:"argv"`
	Script    string   `json:"script"`
	Content   *string  `json:"content"`
	Expect    string   `json:"expect_version"`
	OldString *string  `json:"old_string"`
	NewString *string  `json:"new_string"`
	Message   string   `json:"message"`
	Rev       string   `json:"rev"`
}

func parseArgs(raw []byte) toolArgs {
	var a toolArgs
	json.Unmarshal(raw, &a)
	return a
}

// verifyCallPrefix marks the runtime's own verification run of a task.
const verifyCallPrefix = "verify_"

// titleOf names a tool call the way a person would say it.
func titleOf(tool, callID string, raw []byte) string {
	a := parseArgs(raw)
	cmd := strings.Join(a.Argv, " ")
	if a.Script != "" {
		cmd = a.Script
	}
	if strings.HasPrefix(callID, verifyCallPrefix) {
		return "Verify: " + clipTitle(cmd)
	}
	switch tool {
	case "view":
		return "Read " + a.Path
	case "ls":
		return "List " + orDot(a.Path)
	case "glob":
		return "Find " + a.Pattern
	case "grep":
		return "Search for " + a.Pattern
	case "write":
		return "Write " + a.Path
	case "edit":
		return "Edit " + a.Path
	case "exec", "shell":
		if cmd == "" {
			return "Run a command"
		}
		return "Run " + clipTitle(cmd)
	case "git_commit":
		return "git commit: " + clipTitle(a.Message)
	case "git_show":
		return "git show " + a.Rev
	}
	if strings.HasPrefix(tool, "git_") {
		return "git " + strings.TrimPrefix(tool, "git_")
	}
	return tool
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

func clipTitle(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// locationsOf names the file a call touches, as an absolute path (ACP
// paths are absolute) beneath the workspace root.
func locationsOf(root string, raw []byte) []sdk.ToolCallLocation {
	a := parseArgs(raw)
	if a.Path == "" {
		return nil
	}
	return []sdk.ToolCallLocation{{Path: absUnder(root, a.Path)}}
}

func absUnder(root, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}

// diffOf is an edit's diff: the replaced text and its replacement for
// edit, the content of a file write creates. A write over an existing
// file has no diff here: its old content is not in the call, and ACP
// reads a missing old text as "new file".
func diffOf(root, tool string, raw []byte) []sdk.ToolCallContent {
	a := parseArgs(raw)
	if a.Path == "" {
		return nil
	}
	p := absUnder(root, a.Path)
	switch {
	case tool == "edit" && a.OldString != nil && a.NewString != nil:
		return []sdk.ToolCallContent{sdk.ToolDiffContent(p, *a.NewString, *a.OldString)}
	case tool == "write" && a.Content != nil && a.Expect == "absent":
		return []sdk.ToolCallContent{sdk.ToolDiffContent(p, *a.Content)}
	}
	return nil
}

// outcome is a tool result as the runtime records it.
type outcome struct {
	OK      bool            `json:"ok"`
	Unknown bool            `json:"unknown"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// maxShown bounds the text of a tool result shown to the editor.
const maxShown = 8 << 10

// resultText is what a finished call returned, bounded: a command's
// exit code and output, an error's message, or the result as JSON.
func resultText(raw []byte) string {
	var o outcome
	if json.Unmarshal(raw, &o) != nil {
		return ""
	}
	if o.Error != nil {
		return o.Error.Code + ": " + o.Error.Message
	}
	var proc struct {
		ExitCode *int   `json:"exit_code"`
		Stdout   string `json:"stdout"`
		Stderr   string `json:"stderr"`
		Output   string `json:"output"`
	}
	if json.Unmarshal(o.Result, &proc) == nil && proc.ExitCode != nil {
		return tailText(proc.Stdout+proc.Stderr+proc.Output, maxShown) + "\n(exit code " + strconv.Itoa(*proc.ExitCode) + ")"
	}
	return tailText(string(o.Result), maxShown)
}

func tailText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
