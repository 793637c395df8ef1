package front

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/demo"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// demoCommand is porcelain over three processes: it prepares the demo
// repository, starts fluzo-sim with the bundled scenario, and runs
// fluzo-agent there, so the runtime never links the simulator.
func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "fix the bundled Rust fixture end to end against the model simulator",
		Description: `Copies the bundled Rust crate (one failing regression test, three passing
tests) into a fresh git repository and starts fluzo-sim with the bundled
scenario. Then it opens the terminal UI (fluzo-tui) on that repository with the
demo task submitted: the task streams in, and its first cargo test asks for
approval on a card in the conversation (nothing preselected; press Tab, then
a). The agent reproduces the failure, edits the implementation, reruns the
tests, and the runtime reruns cargo test itself before declaring the task
completed; the result shows the verification and the diff summary.

With --headless it runs "fluzo-agent run" instead, with the one grant the
scenario needs (exec:cargo test), and prints the result. The demo records
consent for its own simulator in a private state directory of its own
(removed when it ends), never in the user's consent store. Needs cargo; uses no
network. Before anything is created it runs cargo --version in the environment
the tools give their children (PATH, HOME, RUSTUP_HOME, CARGO_HOME ...; see
fluzo-tool(1), ENVIRONMENT) and, when that fails, says which variable and path
are at fault. The exit status is fluzo-tui's or fluzo-agent's; a warning on stderr
says when the simulator saw requests other than the scenario's.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "headless", Usage: "run without the terminal UI and print the result"},
			&cli.StringFlag{Name: "dir", Usage: "create the demo repository in `DIR` (new or empty; default: a temporary directory)"},
			&cli.BoolFlag{Name: "json", Usage: "print every event and live update as JSON lines"},
		},
		Action: demoAction,
	}
}

func demoAction(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() > 0 {
		return runner.Usage(c, "demo takes no arguments")
	}
	if err := checkDemoDir(c.String("dir")); err != nil {
		return err
	}
	// Both children are looked up before anything is created.
	simPath, err := findSibling("fluzo-sim")
	if err == nil {
		_, err = findSibling("fluzo-agent")
	}
	admitPath := ""
	if err == nil {
		admitPath, err = findSibling("fluzo-admit")
	}
	if err == nil && !c.Bool("headless") {
		_, err = findSibling("fluzo-tui")
	}
	if err != nil {
		return core.Errorf(core.CodeConfigurationRequired, "fluzo demo runs fluzo-sim, fluzo-admit, fluzo-agent and (without --headless) fluzo-tui, and one of them is missing: %v", err).
			WithHint("install the whole toolkit: go build -o bin/ ./cmd/... puts every binary beside fluzo")
	}
	if err := demo.CheckToolchain(ctx, os.Environ()); err != nil {
		return err
	}
	d, err := demo.Start(ctx, demo.Options{Dir: c.String("dir"), SimPath: simPath, AdmitPath: admitPath})
	if err != nil {
		return err
	}
	var runErr error
	if c.Bool("headless") {
		fmt.Fprintf(c.Root().ErrWriter, "fluzo demo: workspace %s\n", termsafe.Line(d.Dir))
		runErr = execSiblingEnv(ctx, c, "fluzo-agent", d.RunArgs(c.Bool("json")), d.Env())
	} else {
		// The UI owns the terminal until it exits; the workspace is named after.
		runErr = execSiblingEnv(ctx, c, "fluzo-tui", []string{"--workspace", d.Dir, "--draft", demo.Request, "--submit"}, d.Env())
		fmt.Fprintf(c.Root().ErrWriter, "fluzo demo: workspace %s\n", termsafe.Line(d.Dir))
	}
	verdict, err := d.Stop()
	if err != nil {
		fmt.Fprintf(c.Root().ErrWriter, "fluzo demo: %s\n", termsafe.Line(err.Error()))
	} else if !verdict.OK {
		fmt.Fprintf(c.Root().ErrWriter, "fluzo demo: the simulator saw requests other than the scenario's: %s\n", termsafe.Line(verdict.Summary()))
	}
	return runErr
}

// checkDemoDir refuses a --dir the demo cannot use before anything is
// checked, created or printed: it must be an empty directory, or a new one
// whose parent exists (a typo in a deep path must not create a tree).
func checkDemoDir(dir string) error {
	if dir == "" {
		return nil
	}
	hint := "pass --dir with a new or empty directory, or omit it for a temporary one"
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return core.Errorf(core.CodeUsage, "--dir %s is not a directory", termsafe.Line(dir)).WithHint("%s", hint)
	case err == nil:
		entries, err := os.ReadDir(dir)
		if err != nil {
			return core.Wrap(err, core.CodeUsage, "cannot read --dir "+termsafe.Line(dir)).WithHint("%s", hint)
		}
		if len(entries) > 0 {
			return core.Errorf(core.CodeUsage, "--dir %s is not empty", termsafe.Line(dir)).WithHint("%s", hint)
		}
		return nil
	case !os.IsNotExist(err):
		return core.Wrap(err, core.CodeUsage, "cannot use --dir "+termsafe.Line(dir)).WithHint("%s", hint)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if pst, err := os.Stat(parent); err != nil || !pst.IsDir() {
		return core.Errorf(core.CodeUsage, "--dir %s: its parent directory %s does not exist", termsafe.Line(dir), termsafe.Line(parent)).
			WithHint("create %s first, or pass a new directory inside an existing one", termsafe.Line(parent))
	}
	return nil
}
