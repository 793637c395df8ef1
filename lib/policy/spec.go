package policy

import (
	"regexp"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Spec is the exact scope of a grant, parsed from text such as
// "exec:cargo test". The grammar:
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

// ParseSpec parses a grant spec.
func ParseSpec(text string) (Spec, error) {
	s := Spec{Cwd: "."}
	rest := strings.TrimSpace(text)
	for {
		word, after := firstWord(rest)
		if strings.HasPrefix(word, "cwd=") {
			cwd, ok := cleanRel(unquote(strings.TrimPrefix(word, "cwd=")))
			if !ok {
				return Spec{}, specErr(text, "cwd must be a directory inside the workspace")
			}
			s.Cwd, rest = cwd, after
			continue
		}
		if strings.HasPrefix(word, "env=") {
			name, value, ok := strings.Cut(unquote(strings.TrimPrefix(word, "env=")), "=")
			if !ok || !envName.MatchString(name) {
				return Spec{}, specErr(text, "env qualifiers are env=NAME=VALUE")
			}
			if s.Env == nil {
				s.Env = map[string]string{}
			}
			s.Env[name], rest = value, after
			continue
		}
		break
	}
	kind, arg, hasArg := strings.Cut(rest, ":")
	s.Kind = Kind(kind)
	switch s.Kind {
	case KindExec:
		argv, err := splitWords(arg)
		if err != nil || len(argv) == 0 {
			return Spec{}, specErr(text, "exec needs a command, e.g. exec:cargo test")
		}
		s.Argv = argv
	case KindShell:
		if strings.TrimSpace(arg) == "" {
			return Spec{}, specErr(text, "shell needs the exact script")
		}
		s.Script = arg
	case KindRead, KindWrite, KindDelete:
		p, version, _ := strings.Cut(arg, "@")
		clean, ok := cleanRel(p)
		if p == "" || !ok || clean == "." {
			return Spec{}, specErr(text, "a file grant needs a path inside the workspace")
		}
		if s.Kind == KindRead && version != "" {
			return Spec{}, specErr(text, "read grants take no version")
		}
		s.Path, s.Version = clean, version
	case KindGitCommit, KindGitPush:
		if hasArg {
			return Spec{}, specErr(text, string(s.Kind)+" takes no argument")
		}
	case KindNetwork:
		if arg == "" {
			return Spec{}, specErr(text, "network needs a host")
		}
		s.Target = arg
	default:
		return Spec{}, specErr(text, "unknown action "+strings.TrimSpace(kind))
	}
	if s.Kind != KindExec && s.Kind != KindShell && (s.Cwd != "." || s.Env != nil) {
		return Spec{}, specErr(text, "cwd= and env= qualify exec and shell grants only")
	}
	return s, nil
}

// CheckSpec returns "" for a valid spec or the problem; config uses it to
// validate policy.grants.
func CheckSpec(text string) string {
	if _, err := ParseSpec(text); err != nil {
		return core.AsError(err).Message
	}
	return ""
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func specErr(text, problem string) error {
	return core.Errorf(core.CodeUsage, "grant %q: %s", text, problem).
		WithHint(`grant specs look like "exec:cargo test", "cwd=sub env=K=V exec:make", "shell:SCRIPT", "write:src/a.rs", "git_commit", "network:HOST"`)
}

// SpecFor returns the exact spec an approval of op grants.
func SpecFor(op Operation) Spec {
	cwd, _ := cleanRel(op.Cwd)
	s := Spec{Kind: op.Kind, Cwd: ".", Target: op.Target}
	switch op.Kind {
	case KindExec:
		s.Argv, s.Cwd, s.Env = append([]string{}, op.Argv...), cwd, copyEnv(op.Env)
	case KindShell:
		s.Script, s.Cwd, s.Env = op.Script, cwd, copyEnv(op.Env)
	case KindRead, KindWrite, KindDelete:
		s.Path, _ = cleanRel(op.Path)
		if op.Kind != KindRead {
			s.Version = op.Version
		}
	}
	return s
}

func copyEnv(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Matches reports whether the spec covers op exactly.
func (s Spec) Matches(op Operation) bool {
	if s.Kind != op.Kind {
		return false
	}
	switch s.Kind {
	case KindExec, KindShell:
		cwd, ok := cleanRel(op.Cwd)
		if !ok || cwd != s.Cwd || !sameEnv(s.Env, op.Env) {
			return false
		}
		if s.Kind == KindShell {
			return s.Script == op.Script
		}
		return sameArgv(s.Argv, op.Argv)
	case KindRead, KindWrite, KindDelete:
		p, ok := cleanRel(op.Path)
		return ok && p == s.Path && (s.Version == "" || s.Version == op.Version)
	case KindNetwork:
		return strings.EqualFold(s.Target, op.Target)
	}
	return true
}

func sameArgv(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameEnv(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// String renders the spec in canonical text form; ParseSpec(s.String())
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
	case KindNetwork:
		b.WriteString(":" + s.Target)
	}
	return b.String()
}
