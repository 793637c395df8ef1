package sandbox

import (
	"bufio"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// A command cannot read the environment of a non-dumpable process of the
// same user — fluzo-agent holds the provider key there — even when it runs
// as root: non-dumpable alone does not stop a process with capabilities
// (root without CAP_SYS_PTRACE still read it here), so the launcher leaves
// the command none.
func TestCommandCannotReadANonDumpableEnvironment(t *testing.T) {
	abi := ABI()
	if abi == 0 {
		t.Fatal("this test needs a kernel with Landlock (the issue's CI machine has ABI 7)")
	}
	holder := exec.Command(pythonBinary(t), "-c", `import ctypes,sys,time
ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
print("ready", flush=True)
time.sleep(60)`)
	holder.Env = []string{"PATH=/usr/bin:/bin", "FLUZO_TEST_SENTINEL=sk-sentinel-4242"}
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { holder.Process.Kill(); holder.Wait() }()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("holder did not start: %q", line)
	}
	ws := t.TempDir()
	plan := NewPlan(Input{ABI: abi, Workspace: ws, Temp: t.TempDir(), Env: []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}})
	if !MountsWork() {
		plan.ReadOnly = nil
	}
	out := runConfined(t, plan, fmt.Sprintf("cat /proc/%d/environ | tr '\\0' '\\n'; echo done", holder.Process.Pid))
	if !strings.Contains(out, "done") {
		t.Fatalf("the command did not run:\n%s", out)
	}
	if strings.Contains(out, "sk-sentinel-4242") {
		t.Fatalf("a sandboxed command read a non-dumpable process's environment:\n%s", out)
	}
}

// pythonBinary is a real interpreter, not a version-manager shim that
// would hold the environment in a dumpable wrapper process.
func pythonBinary(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "/usr/local/bin/python3"} {
		if _, err := exec.LookPath(p); err == nil {
			return p
		}
	}
	t.Fatal("the test needs /usr/bin/python3 (Debian's python3) to hold a non-dumpable environment")
	return ""
}
