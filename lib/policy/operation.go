package policy

import (
	"path"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/grantspec"
)

// Kind is the class of an operation (see grantspec.Kind).
type Kind = grantspec.Kind

const (
	KindRead       = grantspec.KindRead
	KindWrite      = grantspec.KindWrite
	KindDelete     = grantspec.KindDelete
	KindExec       = grantspec.KindExec
	KindShell      = grantspec.KindShell
	KindGitCommit  = grantspec.KindGitCommit
	KindGitPush    = grantspec.KindGitPush
	KindNetwork    = grantspec.KindNetwork
	KindCredential = grantspec.KindCredential
	KindMCP        = grantspec.KindMCP
)

// Operation is one proposed action, as evaluated before dispatch. Paths
// and Cwd are relative to the workspace root.
type Operation struct {
	Kind   Kind              `json:"op"`
	Argv   []string          `json:"argv,omitempty"`
	Script string            `json:"script,omitempty"`
	Cwd    string            `json:"cwd,omitempty"`
	Env    map[string]string `json:"env,omitempty"`
	Path   string            `json:"path,omitempty"`
	// Version is the observed version of the file (e.g. its content
	// hash); a file grant with a version matches only that version.
	Version string `json:"version,omitempty"`
	// Preexisting marks a write or delete touching a file with changes the
	// user made before the task: it needs approval (§12.1, §21.1).
	Preexisting bool `json:"preexisting,omitempty"`
	// Target is the network host, git remote, credential name, or the
	// MCP tool as "SERVER/TOOL".
	Target string `json:"target,omitempty"`
	// Undecodable says why the tool call's arguments could not be decoded
	// into this operation. Its other fields are then not what the tool
	// would run, so policy denies it whatever the grants, modes or YOLO.
	// It is set by the runtime's tool mapping, never read from the wire.
	Undecodable string `json:"-"`
}

// Validate checks that the operation has the fields its kind needs.
func (o Operation) Validate() error {
	bad := func(format string, args ...any) error {
		return core.Errorf(core.CodeInvalidRequest, format, args...).
			WithHint("see the operation schema in fluzo-admit(1)")
	}
	if o.Undecodable != "" {
		return core.Errorf(core.CodeInvalidRequest, "the arguments of this %s operation cannot be decoded: %s", o.Kind, o.Undecodable).
			WithHint("send the arguments the tool's schema describes")
	}
	switch o.Kind {
	case KindExec:
		if len(o.Argv) == 0 || o.Argv[0] == "" {
			return bad("an exec operation needs a non-empty argv")
		}
	case KindShell:
		if strings.TrimSpace(o.Script) == "" {
			return bad("a shell operation needs a script")
		}
	case KindRead, KindWrite, KindDelete:
		if o.Path == "" {
			return bad("a %s operation needs a path", o.Kind)
		}
	case KindMCP:
		if problem := grantspec.CheckMCPTarget(o.Target); problem != "" {
			return bad("an %s operation needs a target: %s", o.Kind, problem)
		}
	case KindGitCommit, KindGitPush, KindNetwork, KindCredential:
	default:
		return bad("unknown operation %q", o.Kind)
	}
	return nil
}

// protected reports which protected tree a clean path is in ("" if none).
func protected(p string) string {
	first := strings.SplitN(p, "/", 2)[0]
	switch first {
	case ".git", ".fluzo", ".fluzodrive":
		return first
	}
	return ""
}

// destructive reports whether an argv or script discards work: recursive
// or forced removal, hard resets, cleans, forced pushes, checkouts that
// overwrite the working tree.
func destructive(o Operation) bool {
	for _, argv := range commands(o) {
		if destructiveArgv(argv) {
			return true
		}
	}
	return false
}

// commands returns the argv lists an operation runs, looking through
// shells ("sh -c SCRIPT") and wrappers (env, sudo, nice, timeout, ...), so
// classification cannot be dodged by wrapping a command.
func commands(o Operation) [][]string {
	var lists [][]string
	switch o.Kind {
	case KindShell:
		lists = scriptCommands(o.Script)
	case KindExec:
		lists = [][]string{o.Argv}
	}
	var out [][]string
	for depth := 0; depth < 4 && len(lists) > 0; depth++ {
		var next [][]string
		for _, argv := range lists {
			argv = unwrap(argv)
			if script, ok := shellScript(argv); ok {
				next = append(next, scriptCommands(script)...)
				continue
			}
			out = append(out, argv)
		}
		lists = next
	}
	return out
}

// unwrap drops leading command wrappers and their options.
func unwrap(argv []string) []string {
	for len(argv) > 0 {
		switch path.Base(argv[0]) {
		case "env":
			argv = argv[1:]
			for len(argv) > 0 && (strings.HasPrefix(argv[0], "-") || strings.Contains(argv[0], "=")) {
				argv = argv[1:]
			}
		case "sudo", "doas", "nice", "nohup", "command", "exec", "xargs", "time", "stdbuf", "ionice":
			argv = argv[1:]
			for len(argv) > 0 && strings.HasPrefix(argv[0], "-") {
				argv = argv[1:]
			}
		case "timeout":
			argv = argv[1:]
			for len(argv) > 0 && strings.HasPrefix(argv[0], "-") {
				argv = argv[1:]
			}
			if len(argv) > 0 {
				argv = argv[1:] // the duration
			}
		default:
			return argv
		}
	}
	return argv
}

// shellScript returns SCRIPT of "sh -c SCRIPT" (and bash, zsh, dash).
func shellScript(argv []string) (string, bool) {
	if len(argv) < 3 {
		return "", false
	}
	switch path.Base(argv[0]) {
	case "sh", "bash", "zsh", "dash", "ksh":
	default:
		return "", false
	}
	for i := 1; i < len(argv)-1; i++ {
		if strings.HasPrefix(argv[i], "-") && strings.Contains(argv[i], "c") && !strings.HasPrefix(argv[i], "--") {
			return argv[i+1], true
		}
	}
	return "", false
}

func destructiveArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	name := path.Base(argv[0])
	args := argv[1:]
	switch name {
	case "rm":
		return hasFlag(args, "r", "R", "f", "-recursive", "-force")
	case "shred", "mkfs", "dd":
		return true
	case "git":
		sub, rest := gitSubcommand(args)
		switch sub {
		case "reset":
			return hasFlag(rest, "-hard")
		case "clean":
			return hasFlag(rest, "f", "-force")
		case "push":
			return hasFlag(rest, "f", "-force", "-force-with-lease", "-delete", "-mirror")
		case "checkout", "restore":
			return contains(rest, ".") || contains(rest, "--") || hasFlag(rest, "f", "-force")
		case "branch":
			return hasFlag(rest, "D")
		case "stash":
			return contains(rest, "drop") || contains(rest, "clear")
		}
	}
	return false
}

// gitSubcommand skips git's global options ("-C dir", "-c k=v").
func gitSubcommand(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-C" || a == "-c" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return a, args[i+1:]
	}
	return "", nil
}

// hasFlag reports whether args contain one of the short flags (letters,
// also inside bundles like -rf) or long flags (given with one leading
// dash, e.g. "-force" for --force).
func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if strings.HasPrefix(f, "-") {
				if a == "-"+f || strings.HasPrefix(a, "-"+f+"=") {
					return true
				}
			} else if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], f) {
				return true
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// splitScript splits a shell script into rough argv lists at command
// separators. It is a conservative classifier for destructive commands,
// not a shell parser: authorization of scripts is by exact text.
func splitScript(script string) [][]string {
	var out [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for _, w := range strings.FieldsFunc(script, func(r rune) bool { return r == ' ' || r == '\t' }) {
		for _, part := range splitSeparators(w) {
			if part == ";" || part == "&&" || part == "||" || part == "|" || part == "&" || part == "\n" {
				flush()
				continue
			}
			cur = append(cur, strings.Trim(part, `"'()`+"`"))
		}
	}
	flush()
	return out
}

func splitSeparators(w string) []string {
	var out []string
	start := 0
	for i := 0; i < len(w); i++ {
		if strings.ContainsRune(";|&\n", rune(w[i])) {
			if i > start {
				out = append(out, w[start:i])
			}
			j := i + 1
			for j < len(w) && strings.ContainsRune("|&", rune(w[j])) && w[j] == w[i] {
				j++
			}
			out = append(out, w[i:j])
			start, i = j, j-1
		}
	}
	if start < len(w) {
		out = append(out, w[start:])
	}
	return out
}
