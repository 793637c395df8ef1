package chaos

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/sim"
)

// targets are what a run SIGKILLs; seed i kills targets[i%4]. The target
// "none" (only through FLUZO_CHAOS_TARGET) kills nothing and checks that
// the workload completes.
var targets = []string{"agent", "tool", "group", "tree"}

// maxDelay bounds the seeded kill moment; an unkilled workload run takes
// about a second, so delays cover its whole life.
const maxDelay = 1500 * time.Millisecond

// TestChaos runs FLUZO_CHAOS=N seeded crash runs (FLUZO_CHAOS_TARGET
// restricts them to one kill target, FLUZO_CHAOS_FIRST sets the first
// seed) and fails listing every violation with its seed.
func TestChaos(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FLUZO_CHAOS"))
	if n <= 0 {
		t.Skip("the crash-consistency harness runs only with FLUZO_CHAOS=N (scripts/test uses N=20)")
	}
	first, _ := strconv.Atoi(os.Getenv("FLUZO_CHAOS_FIRST"))
	only := os.Getenv("FLUZO_CHAOS_TARGET")
	counts := map[string]int{}
	var all []string
	for seed := first; seed < first+n; seed++ {
		target := targets[seed%len(targets)]
		if only != "" {
			target = only
		}
		r := runOne(t, seed, target)
		counts[target+"/"+r.outcome]++
		if r.litterBeforeReopen > 0 {
			counts[target+"/temp-visible-before-reopen"]++
		}
		for _, v := range r.violations {
			all = append(all, fmt.Sprintf("seed %d target %s delay %v: %s", seed, target, r.delay, v))
		}
		// One line per run, so a long run (N=500 per target) can be read
		// while it goes and its figures survive an interruption.
		t.Logf("run seed=%d target=%s delay=%v outcome=%s litter_before_reopen=%d violations=%d", seed, target, r.delay, r.outcome, r.litterBeforeReopen, len(r.violations))
	}
	t.Logf("chaos: %d runs, outcomes %v, %d violations", n, counts, len(all))
	if len(all) > 0 {
		t.Errorf("chaos violations:\n%s", strings.Join(all, "\n"))
	}
}

type runResult struct {
	delay      time.Duration
	outcome    string // killed, absent (no target at the moment), finished
	violations []string
	// litterBeforeReopen counts temporary names present right after the
	// kill: only a kill in the instant between a replace's link and its
	// rename can leave one (the write itself is unnamed).
	litterBeforeReopen int
}

func runOne(t *testing.T, seed int, target string) runResult {
	rng := rand.New(rand.NewSource(int64(seed)))
	res := runResult{delay: time.Duration(rng.Int63n(int64(maxDelay)))}
	bad := func(format string, a ...any) { res.violations = append(res.violations, fmt.Sprintf(format, a...)) }
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	env, err := isolatedEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	body, err := scenario()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sim.Parse("chaos.json", body)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sim.Start(context.Background(), sc)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := fixture(ws, srv.BaseURL(), env); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	agent := exec.CommandContext(ctx, filepath.Join(binDir, "fluzo-agent"), "run", "--consent", "--no-verify", "--yolo", "--json", "--task", "chaos workload")
	agent.Args[0] = "fluzo-agent"
	agent.Stdout = &out
	agent.Dir, agent.Env = ws, env
	agent.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- agent.Wait() }()
	select {
	case <-done:
		res.outcome = "finished"
	case <-time.After(res.delay):
		if target == "none" {
			<-done
			res.outcome = "finished"
			break
		}
		res.outcome = kill(target, agent.Process.Pid)
		<-done
	}
	if ctx.Err() != nil {
		bad("the agent did not exit within 2 minutes")
	}
	// The reopen and the checks get their own deadline: on a starved CPU
	// a slow (but finished) run left them too little of the run's and
	// they were killed, which read as a failed check.
	ctx, cancelPost := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancelPost()
	if target == "none" {
		checkCompleted(ws, out.String(), bad)
		if v := srv.Verify(); !v.OK {
			bad("simulator verdict: %v %+v", v.Problems, v.Unexpected)
		}
	}
	// A command whose backend was killed may finish on its own (it is
	// never killed on the owner's behalf); the workload's lasts 0.2 s.
	if s := waitSurvivors(ws, 5*time.Second); len(s) > 0 {
		bad("surviving processes after the run: %v", describe(s))
	}

	res.litterBeforeReopen = len(tempFiles(ws))
	db := filepath.Join(ws, ".fluzodrive", "state.sqlite3")
	var pre storeState
	if _, err := os.Stat(db); err == nil {
		pre = readState(db, bad)
	}
	// Reopen: resume runs recovery at the owner's start, then a new
	// attempt (the simulator's consumed steps make it fail: no replay).
	for _, task := range pre.tasks {
		run(ctx, ws, env, "fluzo-agent", "resume", "--json", task)
	}
	if len(pre.tasks) == 0 {
		run(ctx, ws, env, "fluzo-agent", "status")
	}
	if s := waitSurvivors(ws, 5*time.Second); len(s) > 0 {
		bad("surviving processes after resume: %v", describe(s))
	}
	if _, err := os.Stat(db); err == nil {
		post := readState(db, bad)
		checkRecovered(pre, post, bad)
		if code, out := run(ctx, ws, env, "fluzo-store", "check"); code != 0 {
			bad("fluzo-store check exit %d: %s", code, out)
		}
	}
	checkWorkspace(ws, bad)
	// The reopen started a tool server, whose sweep removes a dead
	// writer's temporary file at once (confine.RemoveTemp needs no age):
	// nothing is left for git status or ls to see.
	if left := tempFiles(ws); len(left) > 0 {
		bad("temp litter after the reopen: %v", left)
	}
	if left, _ := os.ReadDir(filepath.Join(root, "tmp")); len(left) > 0 {
		bad("temp litter in the children's TMPDIR: %v", names(left))
	}
	if code, out := run(ctx, ws, env, "fluzo-admit", "lock", "status"); code != 0 || !strings.Contains(out, `"held":false`) {
		bad("workspace lock not released (exit %d): %s", code, out)
	}
	return res
}

// checkCompleted: the unkilled workload (target "none", the harness's
// own control) completes with every file in its after state, so the
// kill runs exercise a workload that really execs, writes and edits.
func checkCompleted(ws, out string, bad func(string, ...any)) {
	checkCompletedWith(ws, bigContent, out, bad)
}

// checkCompletedWith is checkCompleted for a workload that writes big.
func checkCompletedWith(ws, big, out string, bad func(string, ...any)) {
	if !strings.Contains(out, `"type":"result","status":"completed"`) {
		bad("the unkilled run did not complete: %.400s", out[max(0, len(out)-400):])
	}
	for name, want := range map[string]string{"notes.txt": notesAfter, "big.txt": big, "exec.log": execLine} {
		if b, _ := os.ReadFile(filepath.Join(ws, name)); string(b) != want {
			bad("the unkilled run left %s at %d bytes, not its after version", name, len(b))
		}
	}
}

// kill SIGKILLs target and says whether it hit something.
func kill(target string, agent int) string {
	switch target {
	case "agent":
		_ = syscall.Kill(agent, syscall.SIGKILL)
	case "group":
		_ = syscall.Kill(-agent, syscall.SIGKILL)
	case "tree":
		killTree(agent)
	case "tool":
		pid := toolChild(agent)
		if pid == 0 {
			return "absent"
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return "killed"
}

func run(ctx context.Context, ws string, env []string, name string, args ...string) (int, string) {
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, name), args...)
	cmd.Args[0] = name
	cmd.Dir, cmd.Env = ws, env
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil {
		return -1, fmt.Sprint(err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

func names(es []os.DirEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func waitSurvivors(ws string, limit time.Duration) []procInfo {
	deadline := time.Now().Add(limit)
	for {
		s := survivors(ws)
		if len(s) == 0 || time.Now().After(deadline) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func describe(ps []procInfo) string {
	var b []string
	for _, p := range ps {
		b = append(b, fmt.Sprintf("pid %d %q", p.pid, strings.Join(p.argv, " ")))
	}
	return strings.Join(b, ", ")
}
