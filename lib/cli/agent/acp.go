package agent

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/josecorral/fluzo/lib/acp"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

func acpCommand() *cli.Command {
	return &cli.Command{
		Name:  "acp",
		Usage: "let an editor drive the workspace over the Agent Client Protocol (JSON-RPC on stdin/stdout)",
		Description: `Speaks the Agent Client Protocol (ACP v1) on stdin/stdout, for editors such
as Zed. It owns the workspace through fluzo-agent serve, started as a child
at the first session/new or session/load, so policy, the journal, budgets,
verification, consent and workspace_busy behave exactly as headless.

An ACP session is a Fluzo session; session/new needs a cwd that is the
workspace root or inside it. Without --workspace the workspace is the git
working tree of the current directory or, started outside any repository
(as an editor may), of the first session's cwd. Each session/prompt is one task: its text
(and any embedded text resources) is the request, assistant text streams
as agent_message_chunk, every tool call is a tool_call with its kind,
status, locations and, for edits, its diff, and the task's contract is
sent as a plan. Every operation that asks is a session/request_permission
with three answers: "Allow once" (a once grant), "Allow for this task" (a
task grant for that operation) or "Reject" (a deny). A request nobody
answers keeps the task waiting; session/cancel stops it gracefully. One task
runs at a time per workspace: a prompt in another session meanwhile is
refused with workspace_busy, as session/new is while another process owns
the workspace. The prompt's stop reason comes from the result: completed -> end_turn,
cancelled -> cancelled, budget_exhausted -> max_turn_requests (max_tokens
for a token budget), permission_denied or permission_required -> refusal,
anything else -> end_turn; the final message states the status and the
verification outcome, and _meta.fluzo carries them.

Modes: normal and yolo. Switching to yolo asks for confirmation through the
editor's permission prompt; the owner audits the switch as a yolo event; it
lasts for this process and is never restored by session/load, which
replays a stored session's history read-only (no task, no provider
request).

The editor's file-system and terminal capabilities are not used: Fluzo's
confined tools stay the only way the agent reads and writes the workspace.
Malformed JSON-RPC, unknown methods and wrong params are answered with
JSON-RPC errors. When the editor closes stdin (or on SIGTERM, SIGINT,
SIGHUP) a running task is cancelled, its outcome recorded, and the
workspace released. Diagnostics go to stderr; stdout carries only ACP.
serve passes the consent check (fluzo-admit consent); --consent is passed on.`,
		Flags: []cli.Flag{
			workspaceFlag(),
			configFlag(), setFlag(), consentFlag(),
		},
		Action: acpAction,
	}
}

func acpAction(ctx context.Context, c *cli.Command) error {
	root, err := acpRoot(ctx, c)
	if err != nil {
		return err
	}
	self, err := agentExecutable()
	if err != nil {
		return err
	}
	// An editor that goes away closes our stdout too: a write then must
	// fail (and end the connection), not kill us before serve was told.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return acp.Serve(ctx, acp.Options{
		In: os.Stdin, Out: c.Root().Writer, Log: c.Root().ErrWriter, Root: root, Version: core.Version,
		ResolveRoot: func(ctx context.Context, dir string) (string, error) {
			ws, err := store.ResolveWorkspace(ctx, dir)
			return ws.Root, err
		},
		StartOwner: func(_ context.Context, root string) (*port.Client, error) {
			args, err := serveArgs(root, c)
			if err != nil {
				return nil, err
			}
			// Not ctx: a signal must not kill serve before it has
			// cancelled the task and recorded its outcome.
			return port.Start(context.WithoutCancel(ctx), port.Options{Path: self, Args: args})
		},
	})
}

// acpRoot is --workspace's git working tree, else the current
// directory's, else "" (not in a repository: an editor may start the
// agent anywhere), and then the first session's cwd names it.
func acpRoot(ctx context.Context, c *cli.Command) (string, error) {
	ws, err := store.ResolveWorkspace(ctx, c.String("workspace"))
	switch {
	case err == nil:
		return ws.Root, nil
	case c.String("workspace") != "":
		return "", err
	}
	return "", nil
}

// serveArgs passes the workspace and configuration on to serve, so the
// owner opens exactly what acp was asked to.
func serveArgs(root string, c *cli.Command) ([]string, error) {
	args := []string{"serve", "--workspace", root}
	if f := c.String("config"); f != "" {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, core.Wrap(err, core.CodeUsage, "invalid --config path "+f)
		}
		args = append(args, "--config", abs)
	}
	for _, s := range c.StringSlice("set") {
		args = append(args, "--set", s)
	}
	if c.Bool("consent") {
		args = append(args, "--consent")
	}
	return args, nil
}

// agentExecutable is this fluzo-agent (serve is one of its commands),
// else the fluzo-agent beside it, else the one on PATH.
func agentExecutable() (string, error) {
	if self, err := os.Executable(); err == nil {
		if filepath.Base(self) == "fluzo-agent" {
			return self, nil
		}
		p := filepath.Join(filepath.Dir(self), "fluzo-agent")
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath("fluzo-agent")
	if err != nil {
		return "", core.Errorf(core.CodeConfigurationRequired, "fluzo-agent was not found beside this executable or on PATH").
			WithHint("install the whole toolkit")
	}
	return p, nil
}
