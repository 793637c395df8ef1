package agent

import (
	"encoding/json"
	"path"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

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

// verificationCall returns the tool call that runs command: exec with an
// argv when the command is plain words, shell when it needs a shell
// (pipes, quoting, variables). The two never fall back to each other.
func verificationCall(command string) (string, json.RawMessage) {
	if strings.ContainsAny(command, "|&;<>$`\"'*?()~#") {
		b, _ := core.MarshalVerbatim(map[string]any{"script": command})
		return "shell", b
	}
	b, _ := core.MarshalVerbatim(map[string]any{"argv": strings.Fields(command)})
	return "exec", b
}

// execCommand returns the command line a process call runs.
func execCommand(args json.RawMessage) string {
	var a struct {
		Argv   []string `json:"argv"`
		Script string   `json:"script"`
	}
	json.Unmarshal(args, &a)
	if a.Script != "" {
		return a.Script
	}
	return strings.Join(a.Argv, " ")
}

// execResult returns a command's exit code and combined output; a failed
// call counts as exit code -1.
func execResult(out toolOutcome) (int, string) {
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
	code := -1 // no exit code: killed by a signal or never started
	if r.ExitCode != nil {
		code = *r.ExitCode
	}
	return code, r.Stdout + r.Stderr + r.Output
}

// editPath returns the path a write or edit call names.
func editPath(args json.RawMessage) string {
	var a struct {
		Path string `json:"path"`
	}
	json.Unmarshal(args, &a)
	return path.Clean(strings.TrimPrefix(a.Path, "./"))
}

// capTimeout bounds a command's timeout_seconds by the configured shell
// timeout (setting it when the model gave none). Other calls pass as they
// are.
func capTimeout(call toolCall, limit time.Duration) json.RawMessage {
	if limit <= 0 || toolKind(call.Name) != kindExec {
		return call.Args
	}
	var args map[string]any
	if json.Unmarshal(call.Args, &args) != nil || args == nil {
		return call.Args
	}
	max := limit.Seconds()
	if t, ok := args["timeout_seconds"].(float64); ok && t > 0 && t <= max {
		return call.Args
	}
	args["timeout_seconds"] = max
	out, err := core.MarshalVerbatim(args)
	if err != nil {
		return call.Args
	}
	return out
}

// processStop is how a process tool's child was stopped by the runtime:
// cancelled (by a cancel or force stop of the task) with the signal that
// ended it. A child that ran to its own exit has Cancelled false.
type processStop struct {
	Cancelled bool   `json:"cancelled"`
	Signal    string `json:"signal"`
}

// stoppedByCancel reads a process outcome's cancel marks; any other
// tool's result has none.
func stoppedByCancel(out toolOutcome) processStop {
	var p processStop
	if out.OK {
		json.Unmarshal(out.Result, &p)
	}
	return p
}
