package testscripts

import "github.com/rogpeppe/go-internal/testscript"

func init() { register("sim-release", simRelease) }

// sim-release GATE releases the answers the simulator holds at GATE
// ("hold":"GATE" in the scenario), so a script decides exactly when the
// client gets its answer: act first, then release — no sleeps.
func simRelease(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sim-release GATE")
	}
	agentSimMu.Lock()
	srv := simServers[ts]
	agentSimMu.Unlock()
	if srv == nil {
		ts.Fatalf("sim-release: no simulator running; use sim-start first")
	}
	srv.Release(args[0])
}
