package mcp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// buildLauncher builds the real fluzo-tool, whose sandbox-exec confines
// the servers.
func buildLauncher(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fluzo-tool")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/fluzo-tool").CombinedOutput()
	if err != nil {
		t.Fatalf("building fluzo-tool: %v\n%s", err, out)
	}
	return bin
}

// openSandboxed opens one server under settings through launcher.
func openSandboxed(t *testing.T, root, launcher string, set sandbox.Settings, s ...config.MCPServer) (*Manager, *[]recorded) {
	t.Helper()
	var evs []recorded
	m, err := Open(context.Background(), s, Options{Root: root, Sandbox: set, Launcher: launcher, Record: func(typ string, data any) {
		d, _ := data.(map[string]any)
		evs = append(evs, recorded{typ, d})
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m, &evs
}

func try(t *testing.T, m *Manager, args map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(args)
	out := m.Call(context.Background(), "mcp__escape__try", b)
	if !out.OK {
		t.Fatalf("try %s: %+v", b, out.Error)
	}
	return text(t, out)
}

// A stdio server runs in the sandbox exec and shell commands run in:
// it cannot write .git or outside the workspace, nor connect over TCP,
// while the workspace stays writable; the started event says how it is
// confined. Without Landlock (the test seam) the start fails typed, and
// mode "off" starts it unconfined, saying so.
func TestStdioServersRunInTheCommandSandbox(t *testing.T) {
	npm := npmDir(t)
	if sandbox.ABI() == 0 {
		t.Skip("this kernel offers no Landlock")
	}
	launcher := buildLauncher(t)
	escape, _ := filepath.Abs("testdata/escape.mjs")
	// The server's program files live outside the workspace: granted to
	// read as a user would, with tools.sandbox.readable.
	set := sandbox.Settings{Mode: sandbox.ModeLandlock, Readable: []string{npm, filepath.Dir(escape)}}
	srv := stdioServer("escape", "node", escape, npm)

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitConfig := filepath.Join(root, ".git", "config")
	os.WriteFile(gitConfig, []byte("[core]\n"), 0o644)
	outside := filepath.Join(t.TempDir(), "outside.txt")
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

	t.Run("confined", func(t *testing.T) {
		m, evs := openSandboxed(t, root, launcher, set, srv)
		started := findEvent(t, *evs, core.EvMCPServerStarted)
		box, _ := started["sandbox"].(sandbox.Effective)
		if box.Mode != sandbox.ModeLandlock || box.ABI == 0 || box.Network != sandbox.NetworkDeny {
			t.Fatalf("started event sandbox = %+v, want landlock with network deny", started["sandbox"])
		}
		t.Logf("sandbox: mode=%s abi=%d network=%s protected=%s", box.Mode, box.ABI, box.Network, box.Protected)
		if got := try(t, m, map[string]any{"action": "write", "path": filepath.Join(root, "inside.txt")}); got != "ok" {
			t.Fatalf("write inside the workspace: %s, want ok", got)
		}
		if got := try(t, m, map[string]any{"action": "write", "path": outside}); got == "ok" {
			t.Error("the server wrote a file outside the workspace")
		}
		if _, err := os.Stat(outside); err == nil {
			t.Error("the file outside the workspace exists")
		}
		if box.Protected == "read_only_mount" {
			if got := try(t, m, map[string]any{"action": "write", "path": gitConfig}); got == "ok" {
				t.Error("the server wrote .git/config")
			}
			if b, _ := os.ReadFile(gitConfig); string(b) != "[core]\n" {
				t.Errorf(".git/config changed: %q", b)
			}
		} else {
			t.Logf("no mount namespace here (protected = %s): .git is not write-protected", box.Protected)
		}
		if sandbox.NewPlan(sandbox.Input{ABI: box.ABI}).HandledNet != 0 {
			if got := try(t, m, map[string]any{"action": "connect", "port": port}); got == "ok" {
				t.Error("the server connected to a loopback TCP port")
			}
		}
	})

	t.Run("network allowed", func(t *testing.T) {
		allow := set
		allow.Network = sandbox.NetworkAllow
		m, _ := openSandboxed(t, root, launcher, allow, srv)
		if got := try(t, m, map[string]any{"action": "connect", "port": port}); got != "ok" {
			t.Fatalf("connect with network = allow: %s, want ok", got)
		}
	})

	t.Run("no landlock fails closed", func(t *testing.T) {
		t.Setenv(sandbox.ABIEnv, "0")
		m, evs := openSandboxed(t, root, launcher, set, srv)
		failed := findEvent(t, *evs, core.EvMCPServerFailed)
		fe, _ := failed["error"].(*core.Error)
		if fe == nil || fe.Code != sandbox.CodeUnavailable {
			t.Fatalf("failed event error = %+v, want %s", failed["error"], sandbox.CodeUnavailable)
		}
		if len(m.Tools()) != 0 {
			t.Fatal("an unsandboxable server offers tools")
		}
	})

	t.Run("mode off runs unconfined", func(t *testing.T) {
		t.Setenv(sandbox.ABIEnv, "0")
		m, evs := openSandboxed(t, root, launcher, sandbox.Settings{Mode: sandbox.ModeOff}, srv)
		box, _ := findEvent(t, *evs, core.EvMCPServerStarted)["sandbox"].(sandbox.Effective)
		if box.Mode != sandbox.ModeOff || box.Reason == "" {
			t.Fatalf("started event sandbox = %+v, want off with a reason", box)
		}
		target := filepath.Join(t.TempDir(), "unconfined-"+strconv.Itoa(port))
		if got := try(t, m, map[string]any{"action": "write", "path": target}); got != "ok" {
			t.Fatalf("write outside with the sandbox off: %s, want ok", got)
		}
	})
}

func findEvent(t *testing.T, evs []recorded, typ string) map[string]any {
	t.Helper()
	for _, e := range evs {
		if e.typ == typ {
			return e.data
		}
	}
	t.Fatalf("no %s event in %+v", typ, evs)
	return nil
}
