package registry

import (
	"strings"

	"github.com/josecorral/fluzo/lib/cli/clidoc"
	"github.com/josecorral/fluzo/lib/cli/front"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/urfave/cli/v3"
)

// Completion returns what b's completion scripts are generated from: its
// command tree — for fluzo, with every porcelain verb and "fluzo X"
// standing for the command it runs — and the value sources outside the
// tree (setting keys and their values, tool names).
func Completion(b Binary) clidoc.Completion {
	cmd := b.Command()
	runner.Prepare(cmd)
	if b.Name == "fluzo" {
		cmd = frontCompletionTree(cmd)
	}
	var keys []string
	values := map[string][]string{}
	for _, s := range config.Settings() {
		// Collection keys (models.*.model) need an id no list knows.
		if strings.Contains(s.Key, "*") {
			continue
		}
		keys = append(keys, s.Key)
		switch s.Kind {
		case config.KindEnum:
			values[s.Key] = s.Options
		case config.KindBool:
			values[s.Key] = []string{"true", "false"}
		}
	}
	var top []string
	for _, c := range cmd.Commands {
		if !c.Hidden {
			top = append(top, c.Name)
		}
	}
	return clidoc.Completion{Root: cmd, Keys: keys, KeyValues: values, Choices: map[string][]string{
		"TOOL":    tools.Names(),
		"command": top,
	}}
}

// frontCompletionTree replaces each porcelain verb of the fluzo tree by
// the sibling command it runs ("fluzo run" completes like "fluzo-agent
// run") and adds "fluzo X" for every sibling fluzo-X. The man page keeps
// the real tree; only completion sees this one.
func frontCompletionTree(root *cli.Command) *cli.Command {
	verbs := map[string]front.Shortcut{}
	for _, s := range front.Shortcuts() {
		verbs[s.Verb] = s
	}
	out := *root
	out.Commands = nil
	seen := map[string]bool{}
	for _, c := range root.Commands {
		if s, ok := verbs[c.Name]; ok {
			if target := siblingCommand(s.Binary, s.Prefix); target != nil {
				c = standIn(c.Name, c.Usage, target)
			}
		}
		seen[c.Name] = true
		out.Commands = append(out.Commands, c)
	}
	for _, b := range All() {
		verb := strings.TrimPrefix(b.Name, "fluzo-")
		if b.Name == "fluzo" || seen[verb] {
			continue
		}
		if target := siblingCommand(b.Name, nil); target != nil {
			out.Commands = append(out.Commands, standIn(verb, "run "+b.Name, target))
		}
	}
	return &out
}

// siblingCommand returns the command at path prefix in binary's tree.
func siblingCommand(binary string, prefix []string) *cli.Command {
	for _, b := range All() {
		if b.Name != binary {
			continue
		}
		cmd := b.Command()
		runner.Prepare(cmd)
		for _, p := range prefix {
			var next *cli.Command
			for _, c := range cmd.Commands {
				if c.Name == p {
					next = c
				}
			}
			if next == nil {
				return nil
			}
			cmd = next
		}
		return cmd
	}
	return nil
}

// standIn is a completion-only command named verb with target's flags,
// subcommands and arguments.
func standIn(verb, usage string, target *cli.Command) *cli.Command {
	return &cli.Command{Name: verb, Usage: usage, Flags: target.Flags, Commands: target.Commands, ArgsUsage: target.ArgsUsage}
}
