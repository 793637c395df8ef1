// Package grantspec is the grammar of grant specs ("exec:cargo test",
// "write:src/a.rs@v1", "cwd=sub env=K=V exec:make"): parsing, canonical
// and redacted rendering, and the workspace-relative path normalization
// grants and operations share. It is a leaf: lib/config validates
// policy.grants with it and lib/policy matches operations against what it
// parses, so every binary that reads a .fluzo accepts exactly the same
// specs.
package grantspec

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Kind is the class of an operation, and of the grants covering it.
type Kind string

const (
	KindRead       Kind = "read"
	KindWrite      Kind = "write"
	KindDelete     Kind = "delete"
	KindExec       Kind = "exec"  // exact argv, no shell
	KindShell      Kind = "shell" // a script run by the shell
	KindGitCommit  Kind = "git_commit"
	KindGitPush    Kind = "git_push"
	KindNetwork    Kind = "network"
	KindCredential Kind = "credential"
	// KindMCP is a call of one MCP server's tool; its target is
	// "SERVER/TOOL" with TOOL as in the model-visible mcp__SERVER__TOOL.
	KindMCP Kind = "mcp"
)

// Spec is the exact scope of a grant. The grammar:
//
//	spec      = { qualifier " " } action
//	qualifier = "cwd=" DIR | "env=" NAME "=" VALUE
//	action    = "exec:" WORDS            exact argv (words split like a shell,
//	                                      honouring '…', "…" and \ escapes;
//	                                      ; | & $ are ordinary characters)
//	          | "shell:" SCRIPT          the exact script text
//	          | "read:" PATH | "write:" PATH ["@" VERSION] | "delete:" PATH ["@" VERSION]
//	          | "git_commit" | "git_push"
//	          | "network:" HOST
//	          | "mcp:" SERVER "/" TOOL   one MCP tool (as in mcp__SERVER__TOOL)
//
// cwd defaults to "." (the workspace root) and env to no overrides: a
// grant matches only an operation with the same cwd and exactly the same
// environment overrides. Matching never extends to prefixes, extra
// arguments, chained commands or other directories. Paths are
// workspace-relative and compared after normalization ("./a//b" is "a/b").
type Spec struct {
	Kind    Kind
	Argv    []string
	Script  string
	Path    string
	Version string
	Target  string
	Cwd     string
	Env     map[string]string
}

// Parse parses a grant spec. Errors are usage errors quoting the spec,
// with the problem and examples of valid specs.
func Parse(text string) (Spec, error) {
	s, rest, err := parseQualifiers(text)
	if err != nil {
		return Spec{}, err
	}
	kind, arg, hasArg := strings.Cut(rest, ":")
	s.Kind = Kind(kind)
	if problem := s.parseAction(arg, hasArg); problem != "" {
		return Spec{}, specErr(text, problem)
	}
	if s.Kind != KindExec && s.Kind != KindShell && (s.Cwd != "." || s.Env != nil) {
		return Spec{}, specErr(text, "cwd= and env= qualify exec and shell grants only")
	}
	return s, nil
}

// Check returns "" for a valid spec or, in words, what is wrong with it.
func Check(text string) string {
	if _, err := Parse(text); err != nil {
		return core.AsError(err).Message
	}
	return ""
}

// parseQualifiers reads the leading cwd= and env= words.
func parseQualifiers(text string) (Spec, string, error) {
	s := Spec{Cwd: "."}
	rest := strings.TrimSpace(text)
	for {
		word, after := firstWord(rest)
		switch {
		case strings.HasPrefix(word, "cwd="):
			cwd, ok := CleanRel(unquote(strings.TrimPrefix(word, "cwd=")))
			if !ok {
				return Spec{}, "", specErr(text, "cwd must be a directory inside the workspace")
			}
			s.Cwd = cwd
		case strings.HasPrefix(word, "env="):
			name, value, ok := strings.Cut(unquote(strings.TrimPrefix(word, "env=")), "=")
			if !ok || !envName.MatchString(name) {
				return Spec{}, "", specErr(text, "env qualifiers are env=NAME=VALUE")
			}
			if s.Env == nil {
				s.Env = map[string]string{}
			}
			s.Env[name] = value
		default:
			return s, rest, nil
		}
		rest = after
	}
}

// parseAction fills the action's fields from its argument and returns
// the problem ("" when valid).
func (s *Spec) parseAction(arg string, hasArg bool) string {
	switch s.Kind {
	case KindExec:
		argv, err := splitWords(arg)
		if err != nil || len(argv) == 0 {
			return "exec needs a command, e.g. exec:cargo test"
		}
		s.Argv = argv
	case KindShell:
		if strings.TrimSpace(arg) == "" {
			return "shell needs the exact script"
		}
		s.Script = arg
	case KindRead, KindWrite, KindDelete:
		p, version, _ := strings.Cut(arg, "@")
		clean, ok := CleanRel(p)
		if p == "" || !ok || clean == "." {
			return "a file grant needs a path inside the workspace"
		}
		if s.Kind == KindRead && version != "" {
			return "read grants take no version"
		}
		s.Path, s.Version = clean, version
	case KindGitCommit, KindGitPush:
		if hasArg {
			return string(s.Kind) + " takes no argument"
		}
	case KindNetwork:
		if arg == "" {
			return "network needs a host"
		}
		s.Target = arg
	case KindMCP:
		if problem := CheckMCPTarget(arg); problem != "" {
			return problem
		}
		s.Target = arg
	default:
		return "unknown action " + strings.TrimSpace(string(s.Kind))
	}
	return ""
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func specErr(text, problem string) error {
	return core.Errorf(core.CodeUsage, "grant %q: %s", text, problem).
		WithHint(`grant specs look like "exec:cargo test", "cwd=sub env=K=V exec:make", "shell:SCRIPT", "write:src/a.rs", "git_commit", "network:HOST", "mcp:SERVER/TOOL"`)
}

// CleanRel normalizes a workspace-relative path; ok is false when it is
// absolute or escapes the root. "./a//b/../c" and "a/c" are the same path,
// and "" is the root, ".".
func CleanRel(p string) (string, bool) {
	if p == "" {
		return ".", true
	}
	if path.IsAbs(p) {
		return "", false
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// String renders the spec in canonical text form; Parse(s.String())
// returns an equal spec.
func (s Spec) String() string { return s.render(false) }

// Redacted renders the spec for audit events and approval displays:
// environment values are hidden.
func (s Spec) Redacted() string { return s.render(true) }

func (s Spec) render(redact bool) string {
	var b strings.Builder
	if s.Cwd != "" && s.Cwd != "." {
		b.WriteString("cwd=" + quoteWord(s.Cwd) + " ")
	}
	names := make([]string, 0, len(s.Env))
	for k := range s.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := s.Env[k]
		if redact {
			v = "<redacted>"
		}
		b.WriteString("env=" + quoteWord(k+"="+v) + " ")
	}
	b.WriteString(string(s.Kind))
	switch s.Kind {
	case KindExec:
		words := make([]string, len(s.Argv))
		for i, w := range s.Argv {
			words[i] = quoteWord(w)
		}
		b.WriteString(":" + strings.Join(words, " "))
	case KindShell:
		b.WriteString(":" + s.Script)
	case KindRead, KindWrite, KindDelete:
		b.WriteString(":" + s.Path)
		if s.Version != "" {
			b.WriteString("@" + s.Version)
		}
	case KindNetwork, KindMCP:
		b.WriteString(":" + s.Target)
	}
	return b.String()
}
