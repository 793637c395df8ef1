package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

// startEverythingHTTP runs server-everything's streamable HTTP mode on a
// free loopback port and returns its /mcp URL.
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	dir := npmDir(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", filepath.Join(dir, everythingJS), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				close(ready)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("server-everything did not start its HTTP mode")
	}
	return "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
}

func httpServer(name, url string) config.MCPServer {
	return config.MCPServer{Name: name, Transport: config.MCPHTTP, Enabled: true, URL: url, StartupSeconds: 30, CallSeconds: 60}
}

func TestEverythingOverStreamableHTTP(t *testing.T) {
	url := startEverythingHTTP(t)
	m, evs := open(t, t.TempDir(), httpServer("web", url))
	if len(*evs) != 1 || (*evs)[0].typ != core.EvMCPServerStarted {
		t.Fatalf("events: %+v", *evs)
	}
	out := m.Call(context.Background(), "mcp__web__echo", json.RawMessage(`{"message":"over http"}`))
	if !out.OK || text(t, out) != "Echo: over http" {
		t.Errorf("echo over http: %+v %s", out, out.Result)
	}
}

func TestRedirectIsRefused(t *testing.T) {
	followed := 0
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		followed++
		http.Error(w, "never reached", http.StatusTeapot)
	}))
	t.Cleanup(target.Close)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirect.Close)
	m, evs := open(t, t.TempDir(), httpServer("moved", redirect.URL+"/mcp"))
	if len(m.Tools()) != 0 || len(*evs) != 1 || (*evs)[0].typ != core.EvMCPServerFailed {
		t.Fatalf("events: %+v", *evs)
	}
	fe := (*evs)[0].data["error"].(*core.Error)
	if !strings.Contains(fe.Message, "redirect, which Fluzo never follows") {
		t.Errorf("error: %s", fe.Message)
	}
	if followed != 0 {
		t.Errorf("the redirect was followed %d times", followed)
	}
}

func TestHeadersComeFromReferencedVariables(t *testing.T) {
	t.Setenv("MCP_TEST_AUTH", "Bearer by-reference")
	got := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Authorization")
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	s := httpServer("auth", srv.URL)
	s.HeaderEnv = map[string]string{"Authorization": "MCP_TEST_AUTH"}
	open(t, t.TempDir(), s)
	if h := <-got; h != "Bearer by-reference" {
		t.Errorf("Authorization = %q", h)
	}
}
