package agent

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/cli/tool"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// TestMain lets this test binary stand in for fluzo-tool (a real child
// process, with the binary's subreaper and no_new_privs marking).
func TestMain(m *testing.M) {
	// A symlink named fluzo-tool is how an owner's own tool server is
	// started here (the owner scrubs FLUZO_* from its environment).
	if os.Getenv("FLUZO_AGENT_TEST_AS_TOOL") == "1" || sandbox.IsLaunch(os.Args) || filepath.Base(os.Args[0]) == "fluzo-tool" {
		os.Exit(tool.Main())
	}
	os.Exit(m.Run())
}

func waitPID(t *testing.T, path string) int {
	t.Helper()
	for i := 0; i < 2000; i++ {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s was never written", path)
	return 0
}

func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && !strings.Contains(string(b), ") Z ")
}

// A tool server killed outright leaves a daemon that keeps writing into
// the workspace; it is handed to the owner (a child subreaper), and when
// the owner's Close of that backend returns, the daemon is dead and
// reported — so nothing of the tool tree writes after the owner goes on
// to release the workspace lock. The owner's own child in a session of
// its own (as gitx starts git) is not touched. Commands run unconfined
// here (--sandbox off): a sandboxed command's daemon dies with its PID
// namespace and never reaches the owner; this is the owner's line of
// defence for the commands that have no such namespace.
func TestClosingALostBackendEndsItsStraysBeforeReturning(t *testing.T) {
	adoptToolOrphans()
	root := t.TempDir()
	t.Setenv("FLUZO_AGENT_TEST_AS_TOOL", "1")
	c, err := tools.StartServer(context.Background(), root, os.Args[0], "--grace", "300ms", "--sandbox", "off")
	if err != nil {
		t.Fatal(err)
	}
	var reports []*strayReport
	tc := &toolClient{C: c, quit: make(chan struct{})}
	tc.OnStrays(func(r *strayReport) { reports = append(reports, r) })

	own := exec.Command("sleep", "300")
	own.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { own.Process.Kill(); own.Wait() }()

	script := "(setsid sh -c 'echo $$ >daemon.pid; while :; do date >tick; sleep 0.05; done' </dev/null >/dev/null 2>&1 &); sleep 300"
	args, _ := json.Marshal(map[string]any{"script": script})
	if _, err := c.Start("shell", args); err != nil {
		t.Fatal(err)
	}
	daemon := waitPID(t, filepath.Join(root, "daemon.pid"))
	c.KillServer()
	tc.Close()
	if running(daemon) {
		t.Fatalf("the daemon (pid %d) outlived the backend's Close", daemon)
	}
	if len(reports) != 1 || reports[0].Reason != "tool_backend_exited" || len(reports[0].Unconfirmed) != 0 {
		t.Fatalf("reports: %+v", reports)
	}
	found := false
	for _, s := range reports[0].Ended {
		found = found || s.PID == daemon
	}
	if !found {
		t.Fatalf("the report does not name the daemon %d: %+v", daemon, reports[0].Ended)
	}
	if !running(own.Process.Pid) {
		t.Fatal("the owner's own child was ended as a stray")
	}
}
