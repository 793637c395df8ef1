package control

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// TestForeignControlListenerChild listens on the socket path given in its
// environment and answers every line with a forged ack; it is the planted
// listener of TestDialRefusesAnotherUsersListener.
func TestForeignControlListenerChild(t *testing.T) {
	path := os.Getenv("FLUZO_TEST_FOREIGN_SOCKET")
	if path == "" {
		return
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("listening\n")
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		sc := bufio.NewScanner(c)
		if sc.Scan() {
			c.Write([]byte(`{"v":1,"type":"ack","re":"c1","data":{"forged":true}}` + "\n"))
		}
		c.Close()
	}
}

// A socket at the control path served by another user's process never
// receives a command and its answer is never believed.
func TestDialRefusesAnotherUsersListener(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running a listener as another user needs root")
	}
	base, err := os.MkdirTemp("", "fluzo-dial-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o777)
	t.Setenv("XDG_RUNTIME_DIR", base)
	root := t.TempDir()
	path := SocketPath(root)
	os.MkdirAll(filepath.Dir(path), 0o777)
	os.Chmod(filepath.Dir(path), 0o777)
	// The test binary's own directory is private; another user runs a copy.
	bin := filepath.Join(base, "agent.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil || os.WriteFile(bin, data, 0o755) != nil {
		t.Fatalf("copy the test binary: %v", err)
	}
	child := exec.Command(bin, "-test.run=^TestForeignControlListenerChild$", "-test.count=1")
	child.Dir = base
	child.Env = append(os.Environ(), "FLUZO_TEST_FOREIGN_SOCKET="+path)
	child.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, _ := child.StdoutPipe()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "listening") {
		t.Fatalf("planted listener: %q", line)
	}
	ans, err := Dial(context.Background(), root, map[string]any{"cmd": "status"})
	if core.CodeOf(err) != core.CodePermissionDenied || ans != nil {
		t.Fatalf("a foreign listener was trusted: answer %s, err %v", ans, err)
	}
	if !strings.Contains(err.Error(), "another user") {
		t.Fatalf("error does not say why: %v", err)
	}
}
