package clidoc

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
)

// The completion scripts are generated from the command tree: they walk
// the words typed so far through the known subcommand paths and offer that
// node's subcommands and flags, and a flag's or argument's values where
// they are known. Only task and session ids come from a running program —
// "fluzo-store tasks --ids" and "fluzo-store sessions --ids", which open
// the store read-only — so completion never changes a workspace or a
// store.

// Completion is what the generated scripts know: the command tree and
// the value sources that are not in it.
type Completion struct {
	Root *cli.Command
	// Keys are the setting keys, offered for a KEY argument and, with "=",
	// for a KEY=VALUE flag value.
	Keys []string
	// KeyValues are the values a setting accepts where they are few
	// (enum options, true/false), offered for the VALUE after a KEY.
	KeyValues map[string][]string
	// Choices are fixed values for a placeholder (a flag's `NAME` in its
	// usage or a command's ArgsUsage word), e.g. "TOOL" → the tool names.
	Choices map[string][]string
}

// valueKind says how a flag value or an argument completes.
type valueKind int

const (
	valueNone     valueKind = iota // a value nobody can guess: offer nothing
	valueFiles                     // file names
	valueDirs                      // directory names
	valueTasks                     // task ids from the store
	valueSessions                  // session ids from the store
	valueKeys                      // setting keys
	valueKeysEq                    // setting keys followed by "="
	valueWords                     // fixed choices
)

// valueSpec is one completable value: its kind and, for valueWords, the
// choices.
type valueSpec struct {
	kind  valueKind
	words []string
}

// valueFor infers how a value with this placeholder completes; flag is
// the flag's name ("" for a positional argument), which disambiguates ID.
func (c Completion) valueFor(placeholder, flag string) valueSpec {
	ph := strings.Trim(placeholder, "[]")
	if w, ok := c.Choices[ph]; ok {
		return valueSpec{kind: valueWords, words: w}
	}
	switch {
	case ph == "FILE":
		return valueSpec{kind: valueFiles}
	case ph == "DIR":
		return valueSpec{kind: valueDirs}
	case ph == "TASK", ph == "ID" && flag == "task":
		return valueSpec{kind: valueTasks}
	case ph == "ID" && flag == "session":
		return valueSpec{kind: valueSessions}
	case ph == "KEY=VALUE" && len(c.Keys) > 0:
		return valueSpec{kind: valueKeysEq, words: c.Keys}
	case ph == "KEY" && len(c.Keys) > 0:
		return valueSpec{kind: valueKeys, words: c.Keys}
	}
	return valueSpec{kind: valueNone}
}

// flagValue is a value-taking flag of one node and how its value
// completes.
type flagValue struct {
	names []string
	spec  valueSpec
}

// nodeValues lists n's value-taking flags and how its first argument
// completes (ok false when it takes none that can be completed).
func (c Completion) nodeValues(n node) (fv []flagValue, arg valueSpec, ok bool) {
	for _, f := range flags(n.cmd) {
		if !f.value {
			continue
		}
		ph, _ := splitPlaceholder(f.usage)
		fv = append(fv, flagValue{names: f.names, spec: c.valueFor(ph, f.names[0])})
	}
	if fields := strings.Fields(n.cmd.ArgsUsage); len(fields) > 0 {
		// "[TASK]" is an optional TASK: it completes the same way.
		arg = c.valueFor(strings.Trim(fields[0], "[]."), "")
		ok = arg.kind != valueNone
	}
	return fv, arg, ok
}

// keyValueNode reports whether n takes "KEY VALUE" arguments, whose
// VALUE completes from KeyValues.
func (c Completion) keyValueNode(n node) bool {
	f := strings.Fields(n.cmd.ArgsUsage)
	return len(f) >= 2 && f[0] == "KEY" && f[1] == "VALUE" && len(c.KeyValues) > 0 && len(n.cmd.Commands) == 0
}

// keyValueKeys returns the keys of KeyValues in a stable order.
func (c Completion) keyValueKeys() []string {
	var keys []string
	for k := range c.KeyValues {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// usesKeys reports whether any value of the tree completes setting keys,
// so that only those scripts carry the key list.
func (c Completion) usesKeys() bool {
	for _, n := range walk(c.Root) {
		fv, arg, _ := c.nodeValues(n)
		for _, f := range append(fv, flagValue{spec: arg}) {
			if f.spec.kind == valueKeys || f.spec.kind == valueKeysEq {
				return true
			}
		}
	}
	return false
}

// valueFlags returns every value-taking flag of the tree as typed
// (--name, -n), so that a script walking the words skips their values.
func valueFlags(root *cli.Command) []string {
	var out []string
	for _, n := range walk(root) {
		for _, f := range flags(n.cmd) {
			if !f.value {
				continue
			}
			for _, d := range dashed(f.names) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// storeCall is the read-only plumbing a script runs for task or session
// ids; $ws is the --workspace/-C value typed earlier on the line, if any.
func storeCall(kind valueKind) string {
	what := "tasks"
	if kind == valueSessions {
		what = "sessions"
	}
	return `fluzo-store ${ws:+--workspace="$ws"} ` + what + ` --ids 2>/dev/null`
}

func nodeKey(n node) string {
	if n.path == "" {
		return ""
	}
	return "/" + strings.ReplaceAll(n.path, " ", "/")
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func plainUsage(usage string) string {
	_, text := splitPlaceholder(usage)
	return text
}
