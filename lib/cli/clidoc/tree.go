// Package clidoc turns a urfave/cli command tree into the documentation
// every Fluzo binary ships: a roff man page and static bash, zsh and fish
// completion scripts. Generating them from the same tree that parses the
// arguments is what keeps help, man pages and completion from drifting.
package clidoc

import (
	"strings"

	"github.com/urfave/cli/v3"
)

// node is one command in a flattened walk of the tree: its path from the
// root (e.g. "history purge") and the command itself.
type node struct {
	path string
	cmd  *cli.Command
}

func walk(root *cli.Command) []node {
	var out []node
	var rec func(prefix string, c *cli.Command)
	rec = func(prefix string, c *cli.Command) {
		out = append(out, node{path: prefix, cmd: c})
		for _, s := range c.Commands {
			if s.Hidden {
				continue
			}
			p := s.Name
			if prefix != "" {
				p = prefix + " " + s.Name
			}
			rec(p, s)
		}
	}
	rec("", root)
	return out
}

// flagInfo is the documentation view of one flag.
type flagInfo struct {
	names    []string
	value    bool // takes a value
	usage    string
	def      string
	required bool
}

func flags(c *cli.Command) []flagInfo {
	var out []flagInfo
	for _, f := range c.Flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		fi := flagInfo{names: f.Names()}
		if d, ok := f.(cli.DocGenerationFlag); ok {
			fi.value = d.TakesValue()
			fi.usage = d.GetUsage()
			if d.IsDefaultVisible() {
				fi.def = d.GetDefaultText()
				if fi.def == "" {
					fi.def = d.GetValue()
				}
			}
		}
		if r, ok := f.(cli.RequiredFlag); ok {
			fi.required = r.IsRequired()
		}
		out = append(out, fi)
	}
	return out
}

// dashed renders flag names as they are typed: -n, --name.
func dashed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		if len(n) == 1 {
			out[i] = "-" + n
		} else {
			out[i] = "--" + n
		}
	}
	return out
}

// words lists what may follow a node: visible subcommands (with aliases),
// then its flags and --help.
func words(c *cli.Command) (subs []string, opts []string) {
	for _, s := range c.Commands {
		if !s.Hidden {
			subs = append(subs, s.Name)
			subs = append(subs, s.Aliases...)
		}
	}
	for _, f := range flags(c) {
		opts = append(opts, dashed(f.names)...)
	}
	opts = append(opts, "--help")
	return subs, opts
}

func funcName(prog string) string {
	return "_" + strings.NewReplacer("-", "_", ".", "_").Replace(prog)
}
