package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/tools/proc"
)

func TestExecDeliversArgvExactly(t *testing.T) {
	c := newClient(t, t.TempDir())
	args := []string{"a b", "$HOME", "x;y", "`id`", "'q'", ""}
	r := callOK[ProcessResult](t, c, "exec", map[string]any{"argv": append([]string{"printf", "[%s]\n"}, args...)})
	want := "[a b]\n[$HOME]\n[x;y]\n[`id`]\n['q']\n[]\n"
	if r.Stdout != want || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("stdout %q exit %v, want %q", r.Stdout, r.ExitCode, want)
	}
}

func TestNoShellFallbackAfterAFailedSpawn(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"noshebang": "touch fell-back-to-a-shell\n"})
	os.Chmod(filepath.Join(root, "noshebang"), 0o755)
	c := newClient(t, root)
	callErr(t, c, "exec", map[string]any{"argv": []string{"no-such-program-fluzo"}}, "executable_not_found")
	callErr(t, c, "exec", map[string]any{"argv": []string{"./noshebang"}}, "spawn_failed")
	callErr(t, c, "exec", map[string]any{"argv": []string{"touch fell-back-to-a-shell"}}, "executable_not_found")
	if _, err := os.Stat(filepath.Join(root, "fell-back-to-a-shell")); err == nil {
		t.Fatal("a failed exec ran through a shell")
	}
}

func TestExecRefusesDotInPath(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"ls": "#!/bin/sh\necho hijacked\n"})
	os.Chmod(filepath.Join(root, "ls"), 0o755)
	c := newClient(t, root, func(o *Options) { o.ParentEnv = []string{"PATH=.:" + os.Getenv("PATH")} })
	r := callOK[ProcessResult](t, c, "exec", map[string]any{"argv": []string{"ls"}})
	if strings.Contains(r.Stdout, "hijacked") {
		t.Fatal("an executable in the working directory was found through PATH=.")
	}
}

func TestChildHasNoStdinNoTerminalAndItsOwnSession(t *testing.T) {
	c := newClient(t, t.TempDir())
	r := callOK[ProcessResult](t, c, "shell", map[string]any{"script": `cat; echo "stdin:$?"; (exec 3</dev/tty) 2>/dev/null && echo tty:open || echo tty:refused; cat /proc/self/stat`})
	if !strings.Contains(r.Stdout, "stdin:0\n") || !strings.Contains(r.Stdout, "tty:refused\n") {
		t.Fatalf("stdout %q", r.Stdout)
	}
	stat := r.Stdout[strings.LastIndex(r.Stdout, ")")+2:]
	f := strings.Fields(stat)
	// fields after comm: state ppid pgrp session tty_nr
	if f[2] != f[3] || f[4] != "0" {
		t.Fatalf("child pgrp=%s session=%s tty_nr=%s; want its own session without a terminal", f[2], f[3], f[4])
	}
	if strconv.Itoa(os.Getpid()) == f[3] {
		t.Fatal("the child shares the server's session")
	}
}

func TestEnvironmentIsExplicit(t *testing.T) {
	root := t.TempDir()
	marker := filepath.Join(root, "bash_env_ran")
	writeFiles(t, root, map[string]string{"startup.sh": "touch " + marker + "\n"})
	parent := []string{"PATH=" + os.Getenv("PATH"), "HOME=/home/x", "LANG=C.UTF-8", "LC_ALL=C",
		"FLUZO_SENTINEL_API_KEY=sentinel-7f3a", "OPENAI_API_KEY=sentinel-7f3a", "GITHUB_TOKEN=sentinel-7f3a",
		"SSH_AUTH_SOCK=/tmp/agent.sock", "OTEL_EXPORTER_OTLP_HEADERS=authorization=sentinel-7f3a",
		"BASH_ENV=" + filepath.Join(root, "startup.sh"), "ENV=" + filepath.Join(root, "startup.sh"),
		"LD_PRELOAD=/tmp/evil.so", "UNRELATED=value", "GOFLAGS=-mod=mod"}
	c := newClient(t, root, func(o *Options) {
		o.ParentEnv = parent
		o.Env = proc.EnvPolicy{Set: map[string]string{"CONFIGURED": "yes"}, Inherit: []string{"GOFLAGS"}}
	})
	r := callOK[ProcessResult](t, c, "exec", map[string]any{"argv": []string{"env"}, "env": map[string]string{"REQUESTED": "1"}})
	if strings.Contains(r.Stdout, "sentinel-7f3a") || strings.Contains(r.Stdout, "SSH_AUTH_SOCK") || strings.Contains(r.Stdout, "BASH_ENV") ||
		strings.Contains(r.Stdout, "LD_PRELOAD") || strings.Contains(r.Stdout, "UNRELATED") || strings.Contains(r.Stdout, "\nENV=") {
		t.Fatalf("child environment leaks:\n%s", r.Stdout)
	}
	for _, want := range []string{"TERM=dumb", "HOME=/home/x", "LANG=C.UTF-8", "LC_ALL=C", "CONFIGURED=yes", "REQUESTED=1", "GOFLAGS=-mod=mod", "PWD=" + root} {
		if !strings.Contains(r.Stdout, want+"\n") {
			t.Errorf("child environment lacks %s:\n%s", want, r.Stdout)
		}
	}
	callOK[ProcessResult](t, c, "exec", map[string]any{"argv": []string{"bash", "-c", "true"}})
	callOK[ProcessResult](t, c, "shell", map[string]any{"script": "true"})
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("BASH_ENV or ENV was executed")
	}
	callErr(t, c, "exec", map[string]any{"argv": []string{"true"}, "env": map[string]string{"BASH_ENV": "x"}}, "invalid_request")
	callErr(t, c, "exec", map[string]any{"argv": []string{"true"}, "env": map[string]string{"LD_PRELOAD": "x"}}, "invalid_request")
	if _, err := NewServer(Options{Root: root, Env: proc.EnvPolicy{Inherit: []string{"OPENAI_API_KEY"}}}); err == nil {
		t.Fatal("inheriting a secret-looking variable was accepted")
	}
}

func TestOutputBeyondTheCapKeepsHeadAndTail(t *testing.T) {
	c := newClient(t, t.TempDir(), func(o *Options) { o.CaptureLimit = 1000 })
	r := callOK[ProcessResult](t, c, "shell", map[string]any{"script": "echo BEGIN; head -c 200000 /dev/zero | tr '\\0' a; echo; echo END"})
	if !r.StdoutTruncated || r.StdoutBytes != 200011 || len(r.Stdout) > 1200 {
		t.Fatalf("truncated=%v bytes=%d kept=%d", r.StdoutTruncated, r.StdoutBytes, len(r.Stdout))
	}
	if !strings.HasPrefix(r.Stdout, "BEGIN\n") || !strings.HasSuffix(r.Stdout, "END\n") || !strings.Contains(r.Stdout, "bytes omitted") {
		t.Fatalf("head/tail/marker missing: %q…%q", r.Stdout[:20], r.Stdout[len(r.Stdout)-20:])
	}
	if *r.ExitCode != 0 {
		t.Fatalf("the child did not finish normally (pipes not drained?): %+v", r.Outcome)
	}
}

// startAndWaitReady starts a shell request whose script creates "ready"
// once it runs, and waits for that file.
func startAndWaitReady(t *testing.T, c *Client, root, script string) *Pending {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"script": script})
	p, err := c.Start("shell", args)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(root, "ready")); err == nil {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatal("the child never became ready")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func wait(t *testing.T, p *Pending) ProcessResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := p.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out ProcessResult
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCancelACooperativeChild(t *testing.T) {
	root := t.TempDir()
	c := newClient(t, root)
	p := startAndWaitReady(t, c, root, "touch ready; sleep 30")
	if err := c.Cancel(context.Background(), p.ID); err != nil {
		t.Fatal(err)
	}
	r := wait(t, p)
	if !r.Cancelled || r.Signal != "SIGTERM" || len(r.Unconfirmed) != 0 {
		t.Fatalf("cancelled child: %+v", r.Outcome)
	}
}

func TestChildIgnoringSigtermIsReportedThenKilled(t *testing.T) {
	root := t.TempDir()
	c := newClient(t, root)
	p := startAndWaitReady(t, c, root, "trap '' TERM; touch ready; sleep 60; echo survived")
	if err := c.Cancel(context.Background(), p.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case rep := <-c.Stopping:
		if rep.Target != p.ID || len(rep.Survivors) == 0 {
			t.Fatalf("stopping report = %+v", rep)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no stopping report after the grace period")
	}
	if err := c.Kill(context.Background(), p.ID); err != nil {
		t.Fatal(err)
	}
	r := wait(t, p)
	if !r.Killed || r.Signal != "SIGKILL" || strings.Contains(r.Stdout, "survived") {
		t.Fatalf("killed child: %+v", r.Outcome)
	}
}

func TestGrandchildrenEndWithTheirGroup(t *testing.T) {
	root := t.TempDir()
	c := newClient(t, root)
	// The leader exits at once, leaving a background grandchild behind.
	r := callOK[ProcessResult](t, c, "shell", map[string]any{"script": "sleep 300 & echo $! > bg.pid"})
	if len(r.Unconfirmed) != 0 {
		t.Fatalf("unconfirmed: %+v", r.Unconfirmed)
	}
	assertDead(t, root, "bg.pid")
	// The result says what was ended, so the caller knows its job is gone.
	bg := strings.TrimSpace(readFile(t, filepath.Join(root, "bg.pid")))
	if len(r.Ended) != 1 || strconv.Itoa(r.Ended[0].PID) != bg {
		t.Fatalf("ended: %+v, want the background sleep %s", r.Ended, bg)
	}
	// A cancelled leader takes its grandchild with it.
	p := startAndWaitReady(t, c, root, "sleep 300 & echo $! > fg.pid; touch ready; wait")
	c.Cancel(context.Background(), p.ID)
	wait(t, p)
	assertDead(t, root, "fg.pid")
}

func assertDead(t *testing.T, root, pidFile string) {
	t.Helper()
	pid := strings.TrimSpace(readFile(t, filepath.Join(root, pidFile)))
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err == nil && !strings.Contains(string(b), ") Z ") {
		t.Fatalf("grandchild %s is still alive: %s", pid, b)
	}
}

func TestKillRefusesProcessesItDoesNotOwn(t *testing.T) {
	root := t.TempDir()
	c := newClient(t, root)
	for _, pid := range []int{os.Getpid(), 1, os.Getppid()} {
		if err := c.KillPID(context.Background(), pid); err == nil || !strings.Contains(err.Error(), "does not belong") {
			t.Fatalf("kill of pid %d: %v", pid, err)
		}
	}
	if err := c.Kill(context.Background(), "no-such-request"); err == nil {
		t.Fatal("kill of an unknown request was accepted")
	}
}

func TestTimeoutStopsTheChildHonestly(t *testing.T) {
	c := newClient(t, t.TempDir())
	r := callOK[ProcessResult](t, c, "shell", map[string]any{"script": "echo partial; sleep 30", "timeout_seconds": 0.3})
	if !r.TimedOut || r.Signal != "SIGTERM" || r.Stdout != "partial\n" {
		t.Fatalf("timed-out child: %+v", r.Outcome)
	}
	r = callOK[ProcessResult](t, c, "shell", map[string]any{"script": "trap '' TERM; sleep 30", "timeout_seconds": 0.3})
	if !r.TimedOut || !r.Killed || r.Signal != "SIGKILL" {
		t.Fatalf("timed-out SIGTERM-ignoring child: %+v", r.Outcome)
	}
}

func TestClosingStdinStopsOwnedGroups(t *testing.T) {
	root := t.TempDir()
	c, err := NewLocal(context.Background(), Options{Root: root, Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p := startAndWaitReady(t, c, root, "trap '' TERM; sleep 300 & echo $! > bg.pid; touch ready; wait")
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	assertDead(t, root, "bg.pid")
	if _, err := p.Wait(context.Background()); err != nil {
		t.Logf("pending after close: %v", err)
	}
}

func TestWorkingDirectoryIsConfined(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"sub/x": "", ".git/config": ""})
	os.Symlink("..", filepath.Join(root, "up"))
	c := newClient(t, root)
	r := callOK[ProcessResult](t, c, "exec", map[string]any{"argv": []string{"pwd", "-P"}, "cwd": "sub"})
	real, _ := filepath.EvalSymlinks(filepath.Join(root, "sub"))
	if strings.TrimSpace(r.Stdout) != real || r.Cwd != "sub" {
		t.Fatalf("pwd = %q (cwd %q), want %q", r.Stdout, r.Cwd, real)
	}
	callErr(t, c, "exec", map[string]any{"argv": []string{"pwd"}, "cwd": "../"}, "outside_root")
	callErr(t, c, "exec", map[string]any{"argv": []string{"pwd"}, "cwd": "up"}, "outside_root")
	callErr(t, c, "shell", map[string]any{"script": "pwd", "cwd": ".git"}, "protected_path")
}

func TestMaxSecondsCapsTheModelsTimeout(t *testing.T) {
	c := newClient(t, t.TempDir())
	args, _ := json.Marshal(map[string]any{"script": "sleep 30", "timeout_seconds": 600})
	p, err := c.StartWithin("shell", args, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	r := wait(t, p)
	if !r.TimedOut || !r.TimeoutCapped || r.TimeoutSeconds > 0.31 {
		t.Fatalf("capped run: timeout %v capped %v timed_out %v", r.TimeoutSeconds, r.TimeoutCapped, r.TimedOut)
	}
}
