package policy

import (
	"strings"

	"github.com/josecorral/fluzo/lib/grantspec"
)

// Spec is the exact scope of a grant; its grammar, parser and rendering
// are lib/grantspec's, shared with configuration validation.
type Spec = grantspec.Spec

// ParseSpec parses a grant spec (see grantspec.Spec for the grammar).
func ParseSpec(text string) (Spec, error) { return grantspec.Parse(text) }

// SpecFor returns the exact spec an approval of op grants.
func SpecFor(op Operation) Spec {
	cwd, _ := grantspec.CleanRel(op.Cwd)
	s := Spec{Kind: op.Kind, Cwd: ".", Target: op.Target}
	switch op.Kind {
	case KindExec:
		s.Argv, s.Cwd, s.Env = append([]string{}, op.Argv...), cwd, copyEnv(op.Env)
	case KindShell:
		s.Script, s.Cwd, s.Env = op.Script, cwd, copyEnv(op.Env)
	case KindRead, KindWrite, KindDelete:
		s.Path, _ = grantspec.CleanRel(op.Path)
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

// specMatches reports whether the spec covers op exactly.
func specMatches(s Spec, op Operation) bool {
	if s.Kind != op.Kind {
		return false
	}
	switch s.Kind {
	case KindExec, KindShell:
		cwd, ok := grantspec.CleanRel(op.Cwd)
		if !ok || cwd != s.Cwd || !sameEnv(s.Env, op.Env) {
			return false
		}
		if s.Kind == KindShell {
			return s.Script == op.Script
		}
		return sameArgv(s.Argv, op.Argv)
	case KindRead, KindWrite, KindDelete:
		p, ok := grantspec.CleanRel(op.Path)
		return ok && p == s.Path && (s.Version == "" || s.Version == op.Version)
	case KindNetwork:
		return strings.EqualFold(s.Target, op.Target)
	case KindMCP:
		// Exact: a grant of one tool is never a grant of its server.
		return s.Target == op.Target
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
