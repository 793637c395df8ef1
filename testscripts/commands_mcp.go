package testscripts

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("mcp-server", mcpServer)
	register("mcp-http-start", mcpHTTPStart)
	register("mcp-redirect-start", mcpRedirectStart)
	register("mcp-wait-call", mcpWaitCall)
	register("mcp-kill", mcpKill)
	register("mcp-gone", mcpGone)
}

// The real npm MCP servers live in the checkout's ignored bin/tools/npm,
// installed by scripts/install-mcp-servers.
const (
	mcpEverythingJS = "node_modules/@modelcontextprotocol/server-everything/dist/index.js"
	mcpFilesystemJS = "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
)

const mcpMissing = "the npm MCP servers are not installed in bin/tools/npm; run scripts/install-mcp-servers"

// mcpInstalled is the [mcp] condition: a script starting with
// "[!mcp] skip" skips a local run without the servers, but under CI (or
// FLUZO_REQUIRE_MCP=1) their absence is an error, never a skip.
func mcpInstalled() (bool, error) {
	root, _ := filepath.Abs("..")
	if _, err := os.Stat(filepath.Join(root, "bin", "tools", "npm", mcpEverythingJS)); err == nil {
		return true, nil
	}
	if os.Getenv("CI") != "" || os.Getenv("FLUZO_REQUIRE_MCP") == "1" {
		return false, fmt.Errorf("%s", mcpMissing)
	}
	return false, nil
}

// mcpNpmDir returns bin/tools/npm; scripts check [mcp] first.
func mcpNpmDir(ts *testscript.TestScript) string {
	dir := filepath.Join(ts.Getenv("FLUZO_REPO"), "bin", "tools", "npm")
	if _, err := os.Stat(filepath.Join(dir, mcpEverythingJS)); err != nil {
		ts.Fatalf("%s", mcpMissing)
	}
	return dir
}

// mcp-server DIR NAME KIND [FIELD=TOML...] appends [mcp.servers.NAME] to
// DIR/.fluzo. KIND is everything (server-everything over stdio), logged
// (the same behind a wrapper that appends every client message to
// $WORK/mcp/NAME.log and writes its process group to $WORK/mcp/NAME.pid),
// filesystem (server-filesystem rooted at the workspace, "."), hostile
// (a server whose tool description carries control sequences), lingering
// (the same, ignoring the end of its input and writing its pid to
// $WORK/mcp/NAME.pid, so only a signal ends it), stdio
// (give command=...) or http (transport = "http"; give url=...). FIELDs are more keys of the table.
func mcpServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: mcp-server DIR NAME everything|logged|filesystem|hostile|lingering|stdio|http [FIELD=TOML...]")
	}
	dir, name, kind := ts.MkAbs(args[0]), args[1], args[2]
	npm := mcpNpmDir(ts)
	var lines []string
	switch kind {
	case "everything":
		lines = append(lines, tomlArgv("node", filepath.Join(npm, mcpEverythingJS), "stdio"))
	case "logged":
		wrapper := mcpRunFile(ts, name, ".sh")
		script := fmt.Sprintf("#!/bin/sh\necho $$ >%q\ntee -a %q | node %q stdio\n",
			mcpRunFile(ts, name, ".pid"), mcpRunFile(ts, name, ".log"), filepath.Join(npm, mcpEverythingJS))
		ts.Check(os.WriteFile(wrapper, []byte(script), 0o755))
		lines = append(lines, tomlArgv("sh", wrapper))
	case "filesystem":
		lines = append(lines, tomlArgv("node", filepath.Join(npm, mcpFilesystemJS), "."))
	case "hostile", "lingering":
		lines = append(lines, tomlArgv("node", filepath.Join(ts.Getenv("FLUZO_REPO"), "lib", "mcp", "testdata", "hostile.mjs"), npm))
		if kind == "lingering" {
			lines = append(lines, fmt.Sprintf(`env = { HOSTILE_LINGER = "1", HOSTILE_PIDFILE = %q }`, mcpRunFile(ts, name, ".pid")))
		}
	case "http":
		lines = append(lines, `transport = "http"`)
	case "stdio":
		// the FIELDs give the command
	default:
		ts.Fatalf("mcp-server: unknown kind %q", kind)
	}
	for _, kv := range args[3:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("mcp-server: %q is not FIELD=TOML", kv)
		}
		lines = append(lines, k+" = "+v)
	}
	cfg := filepath.Join(dir, ".fluzo")
	old, _ := os.ReadFile(cfg)
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	ts.Check(err)
	if !strings.Contains(string(old), "[tools.sandbox]") {
		// Stdio servers run in the commands' sandbox: their program files
		// (outside the workspace) are granted to read, as a user would
		// with tools.sandbox.readable, and $WORK/mcp to write, where the
		// logged wrapper keeps its log and pid.
		fmt.Fprintf(f, "\n[tools.sandbox]\nreadable = [%q, %q, %q]\nwritable = [%q]\n", npm,
			filepath.Join(ts.Getenv("FLUZO_REPO"), "lib", "mcp", "testdata"), mcpRunDir(ts), mcpRunDir(ts))
	}
	fmt.Fprintf(f, "\n[mcp.servers.%s]\n%s\n", name, strings.Join(lines, "\n"))
	ts.Check(f.Close())
	// The server is part of the configuration the fixture user consents
	// to, like fluzo-config's model.
	grantConsent(ts, dir)
}

// mcpRunDir is $WORK/mcp, where the servers' wrappers, logs and pid
// files live (one directory, so the sandbox can grant it).
func mcpRunDir(ts *testscript.TestScript) string {
	d := filepath.Join(ts.Getenv("WORK"), "mcp")
	ts.Check(os.MkdirAll(d, 0o755))
	return d
}

func mcpRunFile(ts *testscript.TestScript, name, ext string) string {
	return filepath.Join(mcpRunDir(ts), name+ext)
}

func tomlArgv(argv ...string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = strconv.Quote(a)
	}
	return "command = [" + strings.Join(q, ", ") + "]"
}

// mcp-http-start runs server-everything's streamable HTTP mode on a free
// loopback port for the rest of the script and sets $MCP_URL to its
// endpoint.
func mcpHTTPStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: mcp-http-start")
	}
	npm := mcpNpmDir(ts)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command("node", filepath.Join(npm, mcpEverythingJS), "streamableHttp")
	cmd.Env = append(agentScriptEnv(ts), "PORT="+port)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	ts.Defer(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			ts.Fatalf("server-everything exited before listening")
		}
	case <-time.After(time.Minute):
		ts.Fatalf("server-everything did not listen within a minute")
	}
	ts.Setenv("MCP_URL", "http://127.0.0.1:"+port+"/mcp")
}

// mcp-redirect-start serves a redirect to $MCP_URL and sets
// $MCP_REDIRECT_URL to it: a client that follows it reaches a working
// server, so only a refused redirect leaves the server without tools.
func mcpRedirectStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: mcp-redirect-start")
	}
	target := ts.Getenv("MCP_URL")
	if target == "" {
		ts.Fatalf("mcp-redirect-start: run mcp-http-start first")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	}))
	ts.Defer(srv.Close)
	ts.Setenv("MCP_REDIRECT_URL", srv.URL+"/mcp")
}

// mcp-wait-call NAME TOOL waits (up to a minute) until the logged server
// NAME has received a tools/call of TOOL, so a script acts while the
// call runs. It synchronizes on the server's input, never on time.
func mcpWaitCall(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mcp-wait-call NAME TOOL")
	}
	log := mcpRunFile(ts, args[0], ".log")
	want := `"name":"` + args[1] + `"`
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(log)
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, `"method":"tools/call"`) && strings.Contains(line, want) {
				return
			}
		}
	}
	ts.Fatalf("server %s received no tools/call of %s within a minute", args[0], args[1])
}

// mcp-gone NAME waits (up to a minute) until no process of the logged
// or lingering server NAME's process group is left (zombies aside). A parent-death
// signal lands a moment after the parent is seen to exit, so this waits
// on the group's state; it never passes while a member lives.
func mcpGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mcp-gone NAME")
	}
	b, err := os.ReadFile(mcpRunFile(ts, args[0], ".pid"))
	ts.Check(err)
	pgid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	ts.Check(err)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if len(groupMembers(pgid)) == 0 {
			return
		}
	}
	ts.Fatalf("processes of server %s's group %d are still running: %v", args[0], pgid, groupMembers(pgid))
}

// groupMembers lists the live (non-zombie) processes of group pgid.
func groupMembers(pgid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command (which may hold spaces) start at ')'.
		rest := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(rest) > 2 && rest[0] != "Z" && rest[2] == strconv.Itoa(pgid) {
			out = append(out, strconv.Itoa(pid))
		}
	}
	return out
}

// mcp-kill NAME kills the logged server NAME's whole process group with
// SIGKILL (as a crash would end it).
func mcpKill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mcp-kill NAME")
	}
	b, err := os.ReadFile(mcpRunFile(ts, args[0], ".pid"))
	ts.Check(err)
	// The server runs in the sandbox's PID namespace: the pid it wrote is
	// its pid there; find it on the host by that (see gone).
	inner := strings.TrimSpace(string(b))
	host := liveInnerPID(inner, ts.Getenv("WORK"))
	if host == "" {
		ts.Fatalf("no live MCP server %s with pid %s", args[0], inner)
	}
	pid, err := strconv.Atoi(host)
	ts.Check(err)
	ts.Check(syscall.Kill(pid, syscall.SIGKILL))
}
