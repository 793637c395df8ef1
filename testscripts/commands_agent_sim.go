package testscripts

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/sim"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("sim-start", simStart)
	register("sim-verdict", simVerdict)
	register("fixture-repo", fixtureRepo)
	register("fluzo-config", fluzoConfig)
}

var (
	agentSimMu sync.Mutex
	simServers = map[*testscript.TestScript]*sim.Server{}
)

// sim-start FILE starts the simulator in this test process with the
// scenario FILE and sets $SIM_URL (the /v1 base URL) and $SIM_TARGET (the
// redirect target that must never be reached). It stops with the script.
func simStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sim-start SCENARIO")
	}
	sc, err := sim.Load(ts.MkAbs(args[0]))
	ts.Check(err)
	srv, err := sim.Start(context.Background(), sc)
	ts.Check(err)
	agentSimMu.Lock()
	simServers[ts] = srv
	agentSimMu.Unlock()
	ts.Defer(func() {
		srv.Close()
		agentSimMu.Lock()
		delete(simServers, ts)
		agentSimMu.Unlock()
	})
	ts.Setenv("SIM_URL", srv.BaseURL())
	ts.Setenv("SIM_TARGET", srv.TargetURL())
}

// sim-verdict [requests=N] asserts the running simulator's scenario
// passed (every required step consumed, nothing unexpected); with ! it
// asserts it failed. requests=N also checks the request count.
func simVerdict(ts *testscript.TestScript, neg bool, args []string) {
	agentSimMu.Lock()
	srv := simServers[ts]
	agentSimMu.Unlock()
	if srv == nil {
		ts.Fatalf("sim-verdict: no simulator running; use sim-start first")
	}
	v := srv.Verify()
	for _, a := range args {
		var n int
		if _, err := fmt.Sscanf(a, "requests=%d", &n); err != nil {
			ts.Fatalf("usage: sim-verdict [requests=N]")
		}
		if v.Requests != n {
			ts.Fatalf("simulator saw %d requests, want %d", v.Requests, n)
		}
	}
	if v.OK == neg {
		ts.Fatalf("simulator verdict ok=%v: %v (unexpected: %+v)", v.OK, v.Problems, v.Unexpected)
	}
}

// fixture-repo NAME DIR copies share/fixtures/NAME into a fresh git
// repository DIR with one commit and .fluzodrive excluded.
func fixtureRepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fixture-repo NAME DIR")
	}
	src := filepath.Join(ts.Getenv("FLUZO_REPO"), "share", "fixtures", args[0])
	dst := ts.MkAbs(args[1])
	ts.Check(os.CopyFS(dst, os.DirFS(src)))
	for _, g := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "fixture " + args[0]}} {
		cmd := exec.Command("git", g...)
		cmd.Dir = dst
		cmd.Env = agentScriptEnv(ts)
		if out, err := cmd.CombinedOutput(); err != nil {
			ts.Fatalf("git %v: %v\n%s", g, err, out)
		}
	}
	f, err := os.OpenFile(filepath.Join(dst, ".git", "info", "exclude"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	ts.Check(err)
	fmt.Fprintln(f, "/.fluzodrive/")
	ts.Check(f.Close())
}

func agentScriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}

// fluzo-config DIR [KEY=VALUE...] writes DIR/.fluzo pointing the agent's
// model at $SIM_URL (model "sim"), with extra settings as TOML dotted keys
// (VALUE is written as given: quote strings); models.ID.* and
// capacity_pools.ID.* keys go to their [models.ID] / [capacity_pools.ID]
// tables. Then it records the user's consent for that configuration, as
// "fluzo-admit -C DIR consent grant --yes" does (in the script's
// XDG_STATE_HOME), unless -no-consent comes first.
func fluzoConfig(ts *testscript.TestScript, neg bool, args []string) {
	withConsent := true
	if len(args) > 0 && args[0] == "-no-consent" {
		withConsent, args = false, args[1:]
	}
	if neg || len(args) < 1 {
		ts.Fatalf("usage: fluzo-config [-no-consent] DIR [KEY=VALUE...]")
	}
	var b strings.Builder
	b.WriteString("schema_version = 1\n")
	tables := map[string][]string{"models.coder": {fmt.Sprintf("base_url = %q", ts.Getenv("SIM_URL")), `model = "sim"`}}
	order := []string{"models.coder"}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("fluzo-config: %q is not KEY=VALUE", kv)
		}
		parts := strings.SplitN(k, ".", 3)
		if len(parts) == 3 && (parts[0] == "models" || parts[0] == "capacity_pools") {
			table := parts[0] + "." + parts[1]
			if _, seen := tables[table]; !seen {
				order = append(order, table)
			}
			tables[table] = append(tables[table], parts[2]+" = "+v)
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", k, v)
	}
	for _, t := range order {
		fmt.Fprintf(&b, "\n[%s]\n%s\n", t, strings.Join(tables[t], "\n"))
	}
	ts.Check(os.WriteFile(filepath.Join(ts.MkAbs(args[0]), ".fluzo"), []byte(b.String()), 0o644))
	if withConsent {
		grantConsent(ts, ts.MkAbs(args[0]))
	}
}

func init() { register("sim-wait-requests", simWaitRequests) }

// sim-wait-requests N waits (up to a minute) until the simulator has
// received N requests, so a script can act while a scripted delay holds
// the N-th answer. It synchronizes on events, never on elapsed time.
func simWaitRequests(ts *testscript.TestScript, neg bool, args []string) {
	var n int
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sim-wait-requests N")
	}
	if _, err := fmt.Sscanf(args[0], "%d", &n); err != nil {
		ts.Fatalf("sim-wait-requests: %q is not a number", args[0])
	}
	agentSimMu.Lock()
	srv := simServers[ts]
	agentSimMu.Unlock()
	if srv == nil {
		ts.Fatalf("sim-wait-requests: no simulator running")
	}
	for i := 0; i < 6000; i++ {
		if srv.Verify().Requests >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Fatalf("the simulator did not receive %d requests within a minute", n)
}

func init() { register("sim-wait-step", simWaitStep) }

// sim-wait-step ID waits (up to a minute) until the simulator has matched a
// request to step ID. sim-wait-requests counts requests as they arrive,
// before their body is read, so a process killed right after the count
// may never have had its request matched: the step is then still pending
// when the next process asks.
func simWaitStep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sim-wait-step ID")
	}
	agentSimMu.Lock()
	srv := simServers[ts]
	agentSimMu.Unlock()
	if srv == nil {
		ts.Fatalf("sim-wait-step: no simulator running")
	}
	for i := 0; i < 6000; i++ {
		for _, st := range srv.Verify().Steps {
			if st.ID == args[0] && st.Observed > 0 {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Fatalf("the simulator did not match a request to step %s within a minute", args[0])
}
