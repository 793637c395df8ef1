package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/mcp"
	"github.com/josecorral/fluzo/lib/policy"
)

// policyGate is the Policy seam over lib/policy: it maps each tool call
// to the operation policy evaluates, with the task's grants, YOLO state
// and the paths that had user changes before the task began.
type policyGate struct {
	P policy.Policy
	// Preexisting reports whether a path had user changes at baseline.
	Preexisting func(path string) bool

	mu     sync.Mutex
	grants []policy.Grant
	yolo   bool
}

// setGrants replaces the active grants (task grants from --allow or
// approvals, once grants).
func (g *policyGate) setGrants(gs []policy.Grant) {
	g.mu.Lock()
	g.grants = append([]policy.Grant{}, gs...)
	g.mu.Unlock()
}

// addGrant adds one active grant.
func (g *policyGate) addGrant(gr policy.Grant) {
	g.mu.Lock()
	g.grants = append(g.grants, gr)
	g.mu.Unlock()
}

// dropGrant removes a consumed, revoked or expired grant.
func (g *policyGate) dropGrant(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.grants[:0]
	for _, gr := range g.grants {
		if gr.ID != id {
			out = append(out, gr)
		}
	}
	g.grants = out
}

// setYolo switches YOLO for the session (never persisted).
func (g *policyGate) setYolo(on bool) {
	g.mu.Lock()
	g.yolo = on
	g.mu.Unlock()
}

// Evaluate decides one tool call before anything is dispatched.
func (g *policyGate) Evaluate(ctx context.Context, tool string, args json.RawMessage) (Decision, error) {
	op := OperationFor(tool, args)
	if (op.Kind == policy.KindWrite || op.Kind == policy.KindDelete) && g.Preexisting != nil {
		op.Preexisting = g.Preexisting(op.Path)
	}
	g.mu.Lock()
	grants, yolo := append([]policy.Grant{}, g.grants...), g.yolo
	g.mu.Unlock()
	d := g.P.Evaluate(op, grants, yolo)
	out := Decision{Verdict: string(d.Verdict), Rule: d.Rule, Reason: string(d.Reason), GrantID: d.Grant, Once: d.GrantScope == core.GrantOnce}
	if out.Once {
		g.dropGrant(d.Grant)
	}
	return out, nil
}

// OperationFor maps a tool call to the operation policy evaluates. Reads
// of the whole workspace (ls, glob and grep without a path, git
// inspection) are reads of the root, ".". Arguments that do not decode
// mark the operation undecodable, which policy always denies: a partly
// decoded call must never be judged as if it were what the tool runs.
func OperationFor(tool string, args json.RawMessage) policy.Operation {
	if mcp.IsModelName(tool) {
		// An MCP call is judged by the tool it names; its arguments are
		// the server's to validate.
		return mcpOperation(tool)
	}
	var a toolArgs
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}") // as the provider reads no arguments
	}
	err := json.Unmarshal(args, &a)
	op := operationFor(tool, a)
	if err != nil {
		op.Undecodable = argsProblem(err)
	}
	return op
}

// argsProblem says why the arguments did not decode, in words rather than
// decoder text (core.DescribeJSONError, shared with every JSON port).
func argsProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field == "":
		return fmt.Sprintf("expected a JSON object of arguments, found a JSON %s", typeErr.Value)
	case errors.As(err, &typeErr):
		return core.DescribeJSONError(err)
	}
	return "the arguments are not valid JSON"
}

// toolArgs holds every argument policy looks at, across all tools.
type toolArgs struct {
	Path    string            `json:"path"`
	Version string            `json:"expect_version"`
	Argv    []string          `json:"argv"`
	Script  string            `json:"script"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`
	Remote  string            `json:"remote"`
}

func operationFor(tool string, a toolArgs) policy.Operation {
	switch tool {
	case "view":
		return policy.Operation{Kind: policy.KindRead, Path: a.Path}
	case "ls", "glob", "grep":
		if a.Path == "" {
			a.Path = "."
		}
		return policy.Operation{Kind: policy.KindRead, Path: a.Path}
	case "git_status", "git_diff", "git_log", "git_show":
		return policy.Operation{Kind: policy.KindRead, Path: "."}
	case "write", "edit":
		return policy.Operation{Kind: policy.KindWrite, Path: a.Path, Version: a.Version}
	case "exec":
		return policy.Operation{Kind: policy.KindExec, Argv: a.Argv, Cwd: a.Cwd, Env: a.Env}
	case "shell":
		return policy.Operation{Kind: policy.KindShell, Script: a.Script, Cwd: a.Cwd, Env: a.Env}
	case "git_add", "git_commit":
		// Staging prepares a commit: it is gated like one.
		return policy.Operation{Kind: policy.KindGitCommit}
	case "git_push":
		return policy.Operation{Kind: policy.KindGitPush, Target: a.Remote}
	}
	return policy.Operation{Kind: policy.Kind("unknown_tool:" + tool)}
}
