package agent

import (
	"context"
	"fmt"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func debugCommand() *cli.Command {
	return &cli.Command{
		Name:     "debug",
		Usage:    "inspect what the runtime recorded (read-only)",
		Commands: []*cli.Command{debugPromptCommand()},
	}
}

func debugPromptCommand() *cli.Command {
	return &cli.Command{
		Name:      "prompt",
		Usage:     "show the prompt receipt of a task: section ids, sources, sizes and SHA-256 digests",
		ArgsUsage: "TASK",
		Description: `Prints the receipt of the initial context of TASK's latest attempt: one line
per section (id, source, bytes, sha256), then the receipt digest. Content is
shown only with --show-content. Reading never executes anything or contacts a
provider.`,
		Flags: []cli.Flag{
			workspaceFlag(),
			&cli.BoolFlag{Name: "show-content", Usage: "include each section's text"},
			&cli.BoolFlag{Name: "json", Usage: "print the receipt as one JSON record"},
		},
		Action: debugPrompt,
	}
}

func debugPrompt(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() != 1 {
		return runner.Usage(c, "debug prompt needs exactly one TASK id")
	}
	ws, err := store.ResolveWorkspace(ctx, c.String("workspace"))
	if err != nil {
		return err
	}
	s, err := store.OpenReadOnly(ctx, ws)
	if err != nil {
		return err
	}
	defer s.Close()
	rec, err := lagent.PromptReceiptOf(ctx, s, c.Args().First(), c.Bool("show-content"))
	if err != nil {
		return err
	}
	w := c.Root().Writer
	if c.Bool("json") {
		line, _ := core.MarshalVerbatim(rec)
		fmt.Fprintln(w, string(line))
		return nil
	}
	for _, sec := range rec.Sections {
		trunc := ""
		if sec.Truncated {
			trunc = " (truncated)"
		}
		fmt.Fprintf(w, "%-28s %-36s %7d %s%s\n", termsafe.Line(sec.ID), termsafe.Line(sec.Source), sec.Bytes, sec.SHA256, trunc)
		if c.Bool("show-content") {
			fmt.Fprintf(w, "%s\n\n", termsafe.Text(sec.Content))
		}
	}
	fmt.Fprintf(w, "digest %s\n", rec.Digest)
	return nil
}
