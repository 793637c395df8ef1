package demo

import (
	"context"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/core"
)

// Options locate the demo and the toolkit binaries it runs.
type Options struct {
	// Dir is the new or empty directory for the demo repository; ""
	// creates a temporary one.
	Dir string
	// SimPath is the fluzo-sim executable.
	SimPath string
	// AdmitPath is the fluzo-admit executable that records the demo's
	// isolated consent.
	AdmitPath string
}

// Demo is a prepared demo workspace with its simulator running: the
// agent can be started there until Stop, headless by "fluzo-agent run"
// (RunArgs) or behind a launcher by "fluzo-agent serve" (ServeArgs). The
// workspace's .fluzo names the simulator; the agent and its launcher run
// with Env, whose XDG_STATE_HOME is the demo's own consent store.
type Demo struct {
	// Dir is the demo repository; its .fluzo points the agent at Sim.
	Dir string
	Sim *Simulator
	// State is the demo's private state directory (its consent).
	State string
}

// Env is the environment of the demo's children: this process's, with the
// demo's private XDG_STATE_HOME.
func (d *Demo) Env() []string { return withState(os.Environ(), d.State) }

// Start starts the simulator, then prepares the workspace with a .fluzo
// pointing at it. On error nothing is left running.
func Start(ctx context.Context, o Options) (*Demo, error) {
	dir, err := demoDir(o.Dir)
	if err != nil {
		return nil, err
	}
	sim, err := StartSimulator(ctx, o.SimPath)
	if err != nil {
		return nil, err
	}
	if err := PrepareWorkspace(ctx, dir, map[string]string{".fluzo": Config(sim.BaseURL)}); err != nil {
		sim.Stop()
		return nil, err
	}
	state, err := isolateConsent(ctx, o.AdmitPath, dir)
	if err != nil {
		sim.Stop()
		return nil, err
	}
	return &Demo{Dir: dir, Sim: sim, State: state}, nil
}

func demoDir(dir string) (string, error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "fluzo-demo-")
		if err != nil {
			return "", core.Wrap(err, core.CodeFailed, "cannot create a temporary directory").WithHint("pass --dir")
		}
		return tmp, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", core.Wrap(err, core.CodeUsage, "cannot resolve the demo directory "+dir).WithHint("pass --dir with a valid path")
	}
	return abs, nil
}

// RunArgs are the arguments of "fluzo-agent run" that run the demo task
// unattended in the workspace with the scenario's grants; json asks for
// every event as a JSON line.
func (d *Demo) RunArgs(json bool) []string {
	args := []string{"run", "--workspace", d.Dir, "--task", Request}
	for _, g := range Grants {
		args = append(args, "--allow", g)
	}
	if json {
		args = append(args, "--json")
	}
	return args
}

// ServeArgs are the arguments of "fluzo-agent serve" that own the
// workspace behind an interactive launcher (a terminal UI speaking the
// JSONL port). No grant is given: the demo's test command asks for
// approval, which is the point of showing it interactively.
func (d *Demo) ServeArgs() []string { return []string{"serve", "--workspace", d.Dir} }

// Stop shuts the simulator down and returns its verdict. The workspace
// stays for the user to inspect; the demo's consent goes (running the agent
// there again asks for the user's own).
func (d *Demo) Stop() (Verdict, error) {
	os.RemoveAll(d.State)
	return d.Sim.Stop()
}
