// Package agent is the fluzo-agent command tree: the runtime owner of a
// workspace, headless (run, resume) or as a JSONL port (serve), and the
// control commands that reach a running owner from another terminal.
package agent

import (
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/urfave/cli/v3"
)

// Command returns the fluzo-agent command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "fluzo-agent",
		Usage: "the runtime owner of a workspace: agent loop, approvals, journal, recovery",
		Description: `fluzo-agent turns a request into a verified change in the current git working
tree, in place: it owns the workspace (one writer at a time), builds a small
deterministic context, streams model requests, evaluates policy before every
tool call, commits each operation's intent before dispatching it to a
fluzo-tool child, and decides completion by rerunning the task's verification
command after the last edit.

With run --worktree a task works in a git worktree of its own instead
(.fluzodrive/worktrees/TASK, branch fluzo/TASK from HEAD): review shows its
change, accept applies it to the working tree uncommitted, repair continues it
with feedback, reject removes it.

Control commands (status, cancel, kill) reach the owner running in a workspace
through its private control socket.`,
		Commands: commands(),
	}
}

// commands lists the subcommands; each lives in its own file.
func commands() []*cli.Command {
	cmds := []*cli.Command{runCommand(), resumeCommand(), serveCommand(), acpCommand(), debugCommand(), statusCommand(), cancelCommand(), killCommand()}
	return append(cmds, worktreeCommands()...)
}

// Main runs fluzo-agent.
func Main() int { return runner.MainUndumpable(Command()) }
