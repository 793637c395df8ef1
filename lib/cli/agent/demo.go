package agent

import (
	"context"
	"fmt"
	"os"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "fix the bundled Rust fixture end to end against the built-in simulator",
		Description: `Copies the bundled Rust crate (one failing regression test, three passing
tests) into a fresh git repository, starts the model simulator in process with
the bundled scenario, and runs the agent with the one grant the scenario needs
(exec:cargo test). The agent reproduces the failure, reads and edits the
implementation, reruns the tests, and the runtime reruns cargo test itself
before declaring the task completed. Needs cargo; uses no network.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "headless", Usage: "run without the terminal UI (required in this release)"},
			&cli.StringFlag{Name: "dir", Usage: "create the demo repository in `DIR` (new or empty; default: a temporary directory)"},
			&cli.BoolFlag{Name: "json", Usage: "print every event and live update as JSON lines"},
		},
		Action: demoAction,
	}
}

func demoAction(ctx context.Context, c *cli.Command) error {
	if !c.Bool("headless") {
		return runner.Usage(c, "the interactive demo needs the terminal UI, which is not part of this build; run 'fluzo demo --headless'")
	}
	dir := c.String("dir")
	if dir == "" {
		tmp, err := os.MkdirTemp("", "fluzo-demo-")
		if err != nil {
			return core.Wrap(err, core.CodeFailed, "cannot create a temporary directory").WithHint("pass --dir")
		}
		dir = tmp
	}
	fmt.Fprintf(c.Root().ErrWriter, "fluzo demo: workspace %s\n", termsafe.Line(dir))
	p := &printer{w: c.Root().Writer, json: c.Bool("json")}
	res, verdict, err := lagent.RunDemo(ctx, lagent.DemoOptions{Dir: dir, Emit: p.emit})
	if err != nil {
		return err
	}
	if !verdict.OK {
		fmt.Fprintf(c.Root().ErrWriter, "fluzo demo: the simulator saw requests other than the scenario's: %s\n", termsafe.Text(fmt.Sprint(verdict.Problems)))
	}
	p.result(res)
	return runner.Silent{Code: res.ExitCode()}
}
