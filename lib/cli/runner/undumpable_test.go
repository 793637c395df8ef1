package runner

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// holderEnv makes the test binary a process that holds a sentinel in its
// environment, optionally marks itself undumpable, and waits for stdin EOF.
const holderEnv = "FLUZO_TEST_UNDUMPABLE_HOLDER"

func TestMain(m *testing.M) {
	switch os.Getenv(holderEnv) {
	case "":
		os.Exit(m.Run())
	case "undumpable":
		if err := Undumpable(); err != nil {
			os.Exit(1)
		}
	}
	os.Stdout.WriteString("ready\n")
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// A process of the same user reads the environment of an ordinary
// process, and not that of one that called Undumpable. Run as root, both
// sides run as nobody: root reads everything regardless.
func TestUndumpableHidesTheEnvironmentFromTheSameUser(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cred *syscall.Credential
	bin := self
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		dir := t.TempDir()
		os.Chmod(filepath.Dir(dir), 0o755)
		os.Chmod(dir, 0o755)
		bin = filepath.Join(dir, "runner.test")
		data, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	read := func(mode string) (string, error) {
		cmd := exec.Command(bin)
		cmd.Env = []string{holderEnv + "=" + mode, "SENTINEL_VALUE=undumpable-sentinel-93d1"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		defer in.Close()
		if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
			t.Fatalf("holder did not start: %q", line)
		}
		cat := exec.Command("cat", filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "environ"))
		cat.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		got, err := cat.Output()
		return string(got), err
	}
	if env, err := read("dumpable"); err != nil || !strings.Contains(env, "undumpable-sentinel-93d1") {
		t.Fatalf("control: an ordinary process's environment was not readable (%v): the test proves nothing here", err)
	}
	if env, err := read("undumpable"); err == nil || strings.Contains(env, "undumpable-sentinel-93d1") {
		t.Fatalf("a same-user process read an undumpable process's environment: %q %v", env, err)
	}
}
