package agent

import "encoding/json"

// This file is the one place that knows the shapes of fluzo-tool's
// arguments and results that the loop itself interprets (edits for the
// verification contract, command runs for loop detection).

const (
	kindOther = iota
	kindEdit
	kindExec
)

var editTools = map[string]bool{"edit": true, "write": true, "create": true, "apply_patch": true, "replace": true, "delete": true, "move": true}
var execTools = map[string]bool{"exec": true, "run": true, "shell": true, "bash": true}

func toolKind(name string) int {
	switch {
	case editTools[name]:
		return kindEdit
	case execTools[name]:
		return kindExec
	}
	return kindOther
}

// ExecTool is the tool the runtime uses to run the verification command.
const ExecTool = "exec"

// ExecArgs are the arguments of an exec call running command.
func ExecArgs(command string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"command": command})
	return b
}

func execCommand(args json.RawMessage) string {
	var a struct {
		Command any `json:"command"`
		Cmd     any `json:"cmd"`
	}
	json.Unmarshal(args, &a)
	for _, c := range []any{a.Command, a.Cmd} {
		switch v := c.(type) {
		case string:
			return v
		case []any:
			b, _ := json.Marshal(v)
			return string(b)
		}
	}
	return ""
}

// execResult returns a command's exit code and combined output; a failed
// call counts as exit code -1.
func execResult(out ToolOutcome) (int, string) {
	if !out.OK {
		msg := ""
		if out.Error != nil {
			msg = out.Error.Message
		}
		return -1, msg
	}
	var r struct {
		ExitCode *int   `json:"exit_code"`
		Stdout   string `json:"stdout"`
		Stderr   string `json:"stderr"`
		Output   string `json:"output"`
	}
	json.Unmarshal(out.Result, &r)
	code := 0
	if r.ExitCode != nil {
		code = *r.ExitCode
	}
	return code, r.Stdout + r.Stderr + r.Output
}
