package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The test binary doubles as the launcher: called as "BINARY
// sandbox-exec PLAN ARGV..." it runs Launch, as fluzo-tool does; with
// probeEnv set it reports whether read-only binds work through a user
// namespace.
const probeEnv = "FLUZO_SANDBOX_TEST_PROBE"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == LauncherCommand {
		err := Launch(os.Args[2], os.Args[3:])
		fmt.Fprintln(os.Stderr, "launch:", err)
		os.Exit(125)
	}
	if os.Getenv(probeEnv) == "1" {
		exe, _ := os.Executable()
		fmt.Println("binds work:", UserNamespaceBindsWork(exe, ABI()))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runConfined runs script under plan through the launcher and returns its
// combined output.
func runConfined(t *testing.T, plan *Plan, script string) string {
	t.Helper()
	exe, _ := os.Executable()
	argv, err := LauncherArgv(exe, plan, []string{"/bin/sh", "-c", script})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	if MountsWork() {
		inPIDNamespace(cmd.SysProcAttr)
	} else {
		InUserNamespace(cmd.SysProcAttr)
	}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// A launcher started without a PID namespace of its own could not end a
// daemon the command leaves: it refuses to run the command at all.
func TestLaunchOutsideAPIDNamespaceFailsClosed(t *testing.T) {
	exe, _ := os.Executable()
	plan := NewPlan(Input{ABI: ABI(), Workspace: t.TempDir(), Temp: t.TempDir(), Env: []string{"PATH=/usr/bin:/bin"}})
	argv, _ := LauncherArgv(exe, plan, []string{"/bin/sh", "-c", "echo RAN"})
	out, _ := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if strings.Contains(string(out), "RAN") || !strings.Contains(string(out), "PID namespace") {
		t.Fatalf("a launcher outside a PID namespace ran the command:\n%s", out)
	}
}

// The command sees its own namespace's processes under the pids it has
// there: $$ and /proc/self agree, and fluzo-tool's (here the test's)
// process is not listed.
func TestCommandSeesItsOwnProc(t *testing.T) {
	plan := NewPlan(Input{ABI: ABI(), Workspace: t.TempDir(), Temp: t.TempDir(), Env: []string{"PATH=/usr/bin:/bin"}})
	out := runConfined(t, plan, fmt.Sprintf(`read self rest </proc/self/stat; [ "$self" = "$$" ] && echo SAME-PID; [ -e /proc/%d ] && echo SEES-HOST; [ -e /proc/1/stat ] && echo HAS-INIT`, os.Getpid()))
	if !strings.Contains(out, "SAME-PID") || !strings.Contains(out, "HAS-INIT") || strings.Contains(out, "SEES-HOST") {
		t.Fatalf("the command's /proc is not its own namespace's:\n%s", out)
	}
}

func TestLaunchEnforcesThePlan(t *testing.T) {
	abi := ABI()
	if abi == 0 {
		t.Fatal("this test needs a kernel with Landlock (the issue's CI machine has ABI 7)")
	}
	base := t.TempDir()
	ws, home, outside := filepath.Join(base, "ws"), filepath.Join(base, "home"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(ws, ".git"), filepath.Join(home, ".ssh"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(ws, ".git", "config"), []byte("[core]\n"), 0o644)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("SECRET-KEY\n"), 0o600)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	plan := NewPlan(Input{ABI: abi, Workspace: ws, Temp: t.TempDir(), Protected: []string{filepath.Join(ws, ".git")},
		Env: []string{"HOME=" + home, "PATH=/usr/bin:/bin"}})
	if !MountsWork() {
		plan.ReadOnly = nil
	}
	script := fmt.Sprintf(`cd %s
echo in > inside && echo wrote-inside
echo out > %s/file && echo WROTE-OUTSIDE
cat %s/.ssh/id_ed25519
ls %s >/dev/null && echo LISTED-HOME
[ -x /bin/bash ] && bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d' && echo CONNECTED
echo x >> .git/config && echo WROTE-GIT
true`, ws, outside, home, home, port)
	out := runConfined(t, plan, script)
	for _, want := range []string{"wrote-inside"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	refused := []string{"WROTE-OUTSIDE", "SECRET-KEY", "LISTED-HOME", "CONNECTED"}
	if plan.ReadOnly != nil {
		refused = append(refused, "WROTE-GIT")
	}
	for _, bad := range refused {
		if strings.Contains(out, bad) {
			t.Errorf("the sandbox let %s through:\n%s", bad, out)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "file")); err == nil {
		t.Errorf("a file was written outside the workspace")
	}
	if plan.ReadOnly != nil {
		if b, _ := os.ReadFile(filepath.Join(ws, ".git", "config")); string(b) != "[core]\n" {
			t.Errorf(".git/config changed: %q", b)
		}
	}
}

// A plan the kernel refuses (an ABI above the kernel's) fails before the
// command runs, with sandbox_unavailable, never runs it unconfined.
func TestLaunchFailsClosed(t *testing.T) {
	plan := NewPlan(Input{ABI: 99, Workspace: t.TempDir(), Temp: t.TempDir(), Env: []string{"PATH=/usr/bin:/bin"}})
	plan.HandledFS |= 1 << 40
	out := runConfined(t, plan, "echo RAN")
	if strings.Contains(out, "RAN") || !strings.Contains(out, "sandbox_unavailable") && !strings.Contains(out, "cannot be sandboxed") {
		t.Errorf("an unenforceable plan did not fail closed:\n%s", out)
	}
}

// A user without CAP_SYS_ADMIN still gets .git, .fluzo and .fluzodrive
// bound read-only: the launcher starts in its own user namespace. Run as
// root, the test drops to nobody to be such a user.
func TestUnprivilegedUserGetsReadOnlyBinds(t *testing.T) {
	if ABI() == 0 {
		t.Fatal("this test needs a kernel with Landlock")
	}
	exe, _ := os.Executable()
	if os.Geteuid() != 0 {
		if !UserNamespaceBindsWork(exe, ABI()) {
			t.Fatal("read-only binds through a user namespace do not work for this user")
		}
		return
	}
	dir, err := os.MkdirTemp("", "fluzo-sandbox-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "sandbox.test")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	os.Chown(dir, 65534, 65534)
	cmd := exec.Command(bin)
	cmd.Env = []string{probeEnv + "=1", "TMPDIR=" + dir, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "binds work: true") {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}
