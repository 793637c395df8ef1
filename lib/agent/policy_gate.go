package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/policy"
)

// PolicyGate is the Policy seam over lib/policy: it maps each tool call
// to the operation policy evaluates, with the task's grants, YOLO state
// and the paths that had user changes before the task began.
type PolicyGate struct {
	P policy.Policy
	// Preexisting reports whether a path had user changes at baseline.
	Preexisting func(path string) bool

	mu     sync.Mutex
	grants []policy.Grant
	yolo   bool
}

// SetGrants replaces the active grants (task grants from --allow or
// approvals, once grants).
func (g *PolicyGate) SetGrants(gs []policy.Grant) {
	g.mu.Lock()
	g.grants = append([]policy.Grant{}, gs...)
	g.mu.Unlock()
}

// AddGrant adds one active grant.
func (g *PolicyGate) AddGrant(gr policy.Grant) {
	g.mu.Lock()
	g.grants = append(g.grants, gr)
	g.mu.Unlock()
}

// DropGrant removes a consumed, revoked or expired grant.
func (g *PolicyGate) DropGrant(id string) {
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

// SetYolo switches YOLO for the session (never persisted).
func (g *PolicyGate) SetYolo(on bool) {
	g.mu.Lock()
	g.yolo = on
	g.mu.Unlock()
}

// Evaluate decides one tool call before anything is dispatched.
func (g *PolicyGate) Evaluate(ctx context.Context, tool string, args json.RawMessage) (Decision, error) {
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
		g.DropGrant(d.Grant)
	}
	return out, nil
}

// OperationFor maps a tool call to the operation policy evaluates. Reads
// of the whole workspace (ls, glob and grep without a path, git
// inspection) are reads of the root, ".".
func OperationFor(tool string, args json.RawMessage) policy.Operation {
	var a struct {
		Path    string            `json:"path"`
		Version string            `json:"expect_version"`
		Argv    []string          `json:"argv"`
		Script  string            `json:"script"`
		Cwd     string            `json:"cwd"`
		Env     map[string]string `json:"env"`
		Remote  string            `json:"remote"`
	}
	json.Unmarshal(args, &a)
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
