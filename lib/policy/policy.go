package policy

import (
	"fmt"
	"path"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/grantspec"
)

// Mode is a policy setting for a class of operations.
type Mode string

const (
	ModeAllow Mode = "allow"
	ModeAsk   Mode = "ask"
	ModeDeny  Mode = "deny"
)

func (m Mode) strictness() int {
	switch m {
	case ModeAllow:
		return 0
	case ModeAsk:
		return 1
	}
	return 2
}

// Verdict is the outcome of an evaluation.
type Verdict string

const (
	Allow Verdict = "allow"
	Deny  Verdict = "deny"
	Ask   Verdict = "ask"
)

// Reason says why a verdict was reached; it is stable for scripts.
type Reason string

const (
	ReasonPolicyAllow      Reason = "policy_allow"
	ReasonPolicyAsk        Reason = "approval_required"
	ReasonPolicyDeny       Reason = "policy_deny"
	ReasonExplicitDeny     Reason = "explicit_deny"
	ReasonGrant            Reason = "grant"
	ReasonYolo             Reason = "yolo"
	ReasonOutsideWorkspace Reason = "outside_workspace"
	ReasonProtectedPath    Reason = "protected_path"
	ReasonCredentials      Reason = "credentials_denied"
	ReasonInvalid          Reason = "invalid_operation"
)

// Decision is the result of evaluating one operation: the verdict, a
// typed reason, the rule that decided and, for grants, the grant used.
type Decision struct {
	Verdict Verdict `json:"decision"`
	Reason  Reason  `json:"reason"`
	Rule    string  `json:"rule"`
	// Grant is the id of the grant that allowed the operation; when its
	// scope is once it must be consumed with the operation intent.
	Grant      string          `json:"grant,omitempty"`
	GrantScope core.GrantScope `json:"grant_scope,omitempty"`
	// Yolo is true when YOLO turned an approval into an allow.
	Yolo bool `json:"yolo,omitempty"`
}

// Policy is the effective permission table of a workspace.
type Policy struct {
	Shell       Mode
	ToolNetwork Mode
	GitCommit   Mode
	GitPush     Mode
	Destructive Mode
	// MCP is the mode of every MCP tool call (policy.mcp).
	MCP Mode
	// Standing grants come only from explicit configuration.
	Standing []Grant
	// Denies are explicit denials (user flags); they beat every grant
	// and YOLO.
	Denies []Spec
}

// Default is the conservative default policy (§42).
func Default() Policy {
	p, _ := FromConfig(config.Defaults())
	return p
}

// FromConfig builds the policy from a validated configuration.
func FromConfig(cfg *config.Config) (Policy, error) {
	p := Policy{
		Shell:       Mode(cfg.String("policy.shell")),
		ToolNetwork: Mode(cfg.String("policy.tool_network")),
		GitCommit:   Mode(cfg.String("policy.git_commit")),
		GitPush:     Mode(cfg.String("policy.git_push")),
		Destructive: Mode(cfg.String("policy.destructive_commands")),
		MCP:         Mode(cfg.String("policy.mcp")),
	}
	// A server's deny_tools are explicit denies: they beat grants and YOLO.
	for _, s := range cfg.MCPServers() {
		for _, tool := range s.DenyTools {
			p.Denies = append(p.Denies, Spec{Kind: KindMCP, Cwd: ".", Target: grantspec.MCPTarget(s.Name, tool)})
		}
	}
	for i, text := range cfg.Strings("policy.grants") {
		spec, err := ParseSpec(text)
		if err != nil {
			return Policy{}, err
		}
		p.Standing = append(p.Standing, Grant{ID: fmt.Sprintf("config:policy.grants[%d]", i),
			Scope: core.GrantStanding, Spec: spec, Source: "config"})
	}
	return p, nil
}

// Evaluate decides op against the policy, the active task and one-time
// grants, and YOLO. It is pure: consuming a once grant is the caller's
// job (the store records it with the operation intent). Precedence, strongest first:
//
//  1. invalid operation, workspace boundary, protected paths, credential
//     access: deny, whatever the grants or YOLO;
//  2. explicit denies (Policy.Denies) and policy modes set to "deny";
//  3. a mode of "allow";
//  4. a matching grant (standing, then task, then once);
//  5. YOLO, which only turns "ask" into "allow";
//  6. ask.
func (p Policy) Evaluate(op Operation, grants []Grant, yolo bool) Decision {
	if d, done := p.boundary(op); done {
		return d
	}
	for _, s := range p.Denies {
		if specMatches(s, op) {
			return Decision{Verdict: Deny, Reason: ReasonExplicitDeny, Rule: "deny " + s.Redacted()}
		}
	}
	mode, rule := p.modeFor(op)
	switch mode {
	case ModeDeny:
		return Decision{Verdict: Deny, Reason: ReasonPolicyDeny, Rule: rule}
	case ModeAllow:
		return Decision{Verdict: Allow, Reason: ReasonPolicyAllow, Rule: rule}
	}
	if g, ok := p.matchGrant(op, grants); ok {
		return Decision{Verdict: Allow, Reason: ReasonGrant, Rule: "grant " + g.Spec.Redacted(), Grant: g.ID, GrantScope: g.Scope}
	}
	if yolo {
		return Decision{Verdict: Allow, Reason: ReasonYolo, Rule: "yolo (" + rule + ")", Yolo: true}
	}
	return Decision{Verdict: Ask, Reason: ReasonPolicyAsk, Rule: rule}
}

// boundary applies the rules nothing can override.
func (p Policy) boundary(op Operation) (Decision, bool) {
	if err := op.Validate(); err != nil {
		return Decision{Verdict: Deny, Reason: ReasonInvalid, Rule: core.AsError(err).Message}, true
	}
	if op.Kind == KindCredential {
		return Decision{Verdict: Deny, Reason: ReasonCredentials, Rule: "policy.credentials=deny"}, true
	}
	if _, ok := grantspec.CleanRel(op.Cwd); !ok {
		return Decision{Verdict: Deny, Reason: ReasonOutsideWorkspace, Rule: "policy.filesystem=workspace (cwd)"}, true
	}
	if op.Kind == KindRead || op.Kind == KindWrite || op.Kind == KindDelete {
		clean, ok := grantspec.CleanRel(op.Path)
		if !ok {
			return Decision{Verdict: Deny, Reason: ReasonOutsideWorkspace, Rule: "policy.filesystem=workspace"}, true
		}
		// The root itself is inside the workspace: it can be listed and
		// searched, but never written or deleted as a whole.
		if clean == "." && op.Kind != KindRead {
			return Decision{Verdict: Deny, Reason: ReasonProtectedPath, Rule: "protected workspace root"}, true
		}
		tree := protected(clean)
		if tree == ".fluzodrive" || (tree != "" && op.Kind != KindRead) {
			return Decision{Verdict: Deny, Reason: ReasonProtectedPath, Rule: "protected " + tree}, true
		}
	}
	return Decision{}, false
}

// modeFor returns the strictest mode applying to op and the rule text.
func (p Policy) modeFor(op Operation) (Mode, string) {
	switch op.Kind {
	case KindRead:
		return ModeAllow, "policy.filesystem=workspace"
	case KindWrite, KindDelete:
		if op.Preexisting {
			return ModeAsk, "preexisting user change"
		}
		return ModeAllow, "policy.filesystem=workspace"
	case KindGitCommit:
		return p.GitCommit, "policy.git_commit=" + string(p.GitCommit)
	case KindGitPush:
		return p.GitPush, "policy.git_push=" + string(p.GitPush)
	case KindNetwork:
		return p.ToolNetwork, "policy.tool_network=" + string(p.ToolNetwork)
	case KindMCP:
		return p.MCP, "policy.mcp=" + string(p.MCP)
	}
	mode, rule := p.Shell, "policy.shell="+string(p.Shell)
	stricter := func(m Mode, r string) {
		if m.strictness() > mode.strictness() {
			mode, rule = m, r
		}
	}
	if destructive(op) {
		stricter(p.Destructive, "policy.destructive_commands="+string(p.Destructive))
	}
	if sub := gitMutation(op); sub == KindGitCommit {
		stricter(p.GitCommit, "policy.git_commit="+string(p.GitCommit))
	} else if sub == KindGitPush {
		stricter(p.GitPush, "policy.git_push="+string(p.GitPush))
	}
	return mode, rule
}

// gitMutation classifies a command that commits or pushes through git.
func gitMutation(op Operation) Kind {
	found := Kind("")
	for _, argv := range commands(op) {
		if len(argv) == 0 || path.Base(argv[0]) != "git" {
			continue
		}
		switch sub, _ := gitSubcommand(argv[1:]); sub {
		case "push":
			return KindGitPush
		case "commit", "merge", "rebase", "cherry-pick", "revert", "am", "tag":
			found = KindGitCommit
		}
	}
	return found
}

func (p Policy) matchGrant(op Operation, grants []Grant) (Grant, bool) {
	all := [2][]Grant{p.Standing, grants}
	for _, scope := range [...]core.GrantScope{core.GrantStanding, core.GrantTask, core.GrantOnce} {
		for _, list := range all {
			for _, g := range list {
				if g.Scope == scope && specMatches(g.Spec, op) {
					return g, true
				}
			}
		}
	}
	return Grant{}, false
}
