// Package front is the "fluzo" front command: friendly porcelain over the
// toolkit's plumbing binaries. Like git, it owns little logic of its own —
// "fluzo X …" runs "fluzo-X …" found beside the executable or on PATH, and a
// few porcelain verbs are shortcuts into a sibling's subcommand.
package front

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

// shortcut maps a porcelain verb to the sibling binary and the arguments
// placed before the user's own.
type shortcut struct {
	verb   string
	binary string
	prefix []string
	usage  string
}

var shortcuts = []shortcut{
	{"run", "fluzo-agent", []string{"run"}, "run a task headless in this workspace (fluzo-agent run)"},
	{"init", "fluzo-admit", []string{"config", "init"}, "set up this workspace: the setup flow in a terminal (fluzo-tui --setup), else a commented .fluzo with every default (fluzo-admit config init)"},
	{"history", "fluzo-store", []string{"history"}, "list or purge stored sessions (fluzo-store history)"},
	{"events", "fluzo-store", []string{"events"}, "stream stored events as JSONL (fluzo-store events)"},
	{"replay", "fluzo-observe", []string{"replay"}, "show a task's read-only timeline (fluzo-observe replay)"},
	{"telemetry", "fluzo-observe", nil, "local telemetry: purge, health (fluzo-observe)"},
}

// Shortcut is a porcelain verb as completion sees it: "fluzo VERB args"
// runs "BINARY PREFIX... args".
type Shortcut struct {
	Verb, Binary string
	Prefix       []string
}

// Shortcuts lists the porcelain verbs, so that fluzo's completion offers
// the flags and subcommands of what each one runs.
func Shortcuts() []Shortcut {
	out := make([]Shortcut, len(shortcuts))
	for i, s := range shortcuts {
		out[i] = Shortcut{Verb: s.verb, Binary: s.binary, Prefix: s.prefix}
	}
	return out
}

// Command returns the fluzo command tree.
func Command() *cli.Command {
	cmd := &cli.Command{
		Name:      "fluzo",
		Usage:     "local-first runtime for AI coding agents",
		ArgsUsage: "[command] [arguments...]",
		Version:   core.Version,
		Description: `Without arguments fluzo opens the terminal UI (fluzo-tui), which first runs
the setup flow when the workspace has no .fluzo. With a command it
runs the matching toolkit binary: "fluzo store events" runs "fluzo-store events",
"fluzo history list" runs "fluzo-store history list", and "fluzo X" runs "fluzo-X"
found beside the fluzo executable or, failing that, on PATH. Arguments, standard
streams and the exit status pass through unchanged.

Toolkit: fluzo-agent (runtime owner), fluzo-tool (confined tools), fluzo-admit
(settings and policy), fluzo-store (durable store), fluzo-observe (replay,
diagnostics, telemetry), fluzo-tui (terminal UI), fluzo-sim (model simulator).`,
		// Dispatch must see "--help" and flags meant for the sibling.
		SkipFlagParsing: true,
		Action:          dispatch,
		Commands: []*cli.Command{
			{Name: "version", Usage: "print the toolkit version", Action: func(_ context.Context, c *cli.Command) error {
				fmt.Fprintln(c.Root().Writer, core.VersionLine("fluzo"))
				return nil
			}},
			{Name: "help", Usage: "show this help, or the help of a command", ArgsUsage: "[command]", Action: help},
			demoCommand(),
		},
	}
	for _, s := range shortcuts {
		s := s
		cmd.Commands = append(cmd.Commands, &cli.Command{
			Name: s.verb, Usage: s.usage, SkipFlagParsing: true,
			Action: func(ctx context.Context, c *cli.Command) error {
				if s.verb == "init" && interactiveInit(c.Args().Slice()) {
					return execSibling(ctx, c, "fluzo-tui", []string{"--setup"})
				}
				return execSibling(ctx, c, s.binary, append(append([]string{}, s.prefix...), c.Args().Slice()...))
			},
		})
	}
	return cmd
}

// Main runs the front command.
func Main() int { return runner.Main(Command()) }

func help(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() == 0 {
		return cli.ShowAppHelp(c.Root())
	}
	name := c.Args().First()
	if name == "demo" {
		return cli.ShowCommandHelp(ctx, c.Root(), name)
	}
	for _, s := range shortcuts {
		if s.verb == name {
			return execSibling(ctx, c, s.binary, append(append([]string{}, s.prefix...), "--help"))
		}
	}
	return execSibling(ctx, c, "fluzo-"+name, []string{"--help"})
}

func dispatch(ctx context.Context, c *cli.Command) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		if _, err := findSibling("fluzo-tui"); err == nil {
			return execSibling(ctx, c, "fluzo-tui", nil)
		}
		return cli.ShowAppHelp(c)
	}
	switch args[0] {
	case "-h", "--help":
		return cli.ShowAppHelp(c)
	case "-v", "--version":
		fmt.Fprintln(c.Writer, core.VersionLine("fluzo"))
		return nil
	}
	if strings.HasPrefix(args[0], "-") {
		return runner.Usage(c, "unknown option %s", args[0])
	}
	return execSibling(ctx, c, "fluzo-"+args[0], args[1:])
}

// findSibling looks for a toolkit binary beside the running executable,
// then on PATH, so an installed toolkit prefers its own siblings over
// another version earlier on PATH.
func findSibling(name string) (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return exec.LookPath(name)
}

// sibling is findSibling with the error a user sees.
func sibling(name string) (string, error) {
	path, err := findSibling(name)
	if err != nil {
		sub := strings.TrimPrefix(name, "fluzo-")
		return "", core.Errorf(core.CodeUsage, "%q is not a fluzo command: no %s beside fluzo or on PATH", sub, name).
			WithHint("available: %s", strings.Join(available(), ", "))
	}
	return path, nil
}

func execSibling(ctx context.Context, c *cli.Command, name string, args []string) error {
	return execSiblingEnv(ctx, c, name, args, nil)
}

// execSiblingEnv is execSibling with the child's environment (nil: this
// process's).
func execSiblingEnv(ctx context.Context, c *cli.Command, name string, args, env []string) error {
	path, err := sibling(name)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Args[0] = name
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, c.Root().Writer, c.Root().ErrWriter
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return runner.Silent{Code: passThroughStatus(ee)}
		}
		return core.Wrap(err, core.CodeFailed, "could not run "+name).WithHint("check that %s is executable", path)
	}
	return nil
}

// passThroughStatus is the status fluzo exits with for a sibling that
// failed: its exit code, or 128+N when signal N killed it, as a shell
// reports it (a SIGKILLed agent is 137, not "cancelled").
func passThroughStatus(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// available lists the commands a user can type: built-ins, shortcuts and
// every fluzo-* executable found beside fluzo or on PATH.
func available() []string {
	set := map[string]bool{"help": true, "version": true}
	for _, s := range shortcuts {
		set[s.verb] = true
	}
	dirs := filepath.SplitList(os.Getenv("PATH"))
	if self, err := os.Executable(); err == nil {
		dirs = append([]string{filepath.Dir(self)}, dirs...)
	}
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if n := e.Name(); strings.HasPrefix(n, "fluzo-") && !e.IsDir() {
				set[strings.TrimPrefix(n, "fluzo-")] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
