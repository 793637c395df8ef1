package agent

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/sim"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/share"
)

// DemoGrants are the exact grants the demo scenario needs: the model runs
// cargo test, nothing else.
var DemoGrants = []string{"exec:cargo test"}

// DemoOptions configure fluzo demo.
type DemoOptions struct {
	Dir  string
	Emit func(any)
}

// demoConfig is the .fluzo of the demo workspace, pointing the agent at
// the in-process simulator.
func demoConfig(baseURL string) string {
	return fmt.Sprintf(`schema_version = 1

[agent]
model = "coder"

[models.coder]
provider = "openai_compatible"
base_url = %q
model = "sim"
auth = "none"

[harness]
max_turns = 12
verify_command = %q
`, baseURL, DemoVerify)
}

// RunDemo copies the bundled Rust fixture into a fresh git repository at
// o.Dir, starts the simulator in process with the bundled scenario, runs
// the agent with the scenario's grants and returns the result and the
// simulator's verdict on the requests it saw.
func RunDemo(ctx context.Context, o DemoOptions) (Result, sim.Verdict, error) {
	raw, err := fs.ReadFile(share.Scenarios, share.DemoScenario)
	if err != nil {
		return Result{}, sim.Verdict{}, core.Wrap(err, core.CodeInternal, "the demo scenario is missing from this build")
	}
	sc, err := sim.Parse(share.DemoScenario, raw)
	if err != nil {
		return Result{}, sim.Verdict{}, err
	}
	srv, err := sim.Start(ctx, sc)
	if err != nil {
		return Result{}, sim.Verdict{}, err
	}
	defer srv.Close()
	if err := PrepareDemoWorkspace(ctx, o.Dir, map[string]string{".fluzo": demoConfig(srv.BaseURL())}); err != nil {
		return Result{}, sim.Verdict{}, err
	}
	ws, err := store.ResolveWorkspace(ctx, o.Dir)
	if err != nil {
		return Result{}, sim.Verdict{}, err
	}
	if _, err := store.AddGitExclude(ctx, ws); err != nil {
		return Result{}, sim.Verdict{}, err
	}
	owner, err := OpenOwner(ctx, OwnerOptions{Dir: ws.Root, Emit: o.Emit, Telemetry: "demo"})
	if err != nil {
		return Result{}, sim.Verdict{}, err
	}
	defer owner.Close()
	res := owner.Run(ctx, TaskOptions{Request: DemoRequest, Allow: DemoGrants})
	return res, srv.Verify(), nil
}
