package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

type recorded struct {
	typ  string
	data map[string]any
}

func stdioServer(name string, argv ...string) config.MCPServer {
	return config.MCPServer{Name: name, Transport: config.MCPStdio, Enabled: true, Command: argv, Cwd: ".",
		StartupSeconds: 30, CallSeconds: 60, MaxRestarts: 1}
}

func open(t *testing.T, root string, servers ...config.MCPServer) (*Manager, *[]recorded) {
	t.Helper()
	var evs []recorded
	m, err := Open(context.Background(), servers, Options{Root: root, Record: func(typ string, data any) {
		d, _ := data.(map[string]any)
		evs = append(evs, recorded{typ, d})
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m, &evs
}

func everything(t *testing.T) config.MCPServer {
	return stdioServer("everything", "node", filepath.Join(npmDir(t), everythingJS), "stdio")
}

func text(t *testing.T, out Outcome) string {
	t.Helper()
	var r Result
	if err := json.Unmarshal(out.Result, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("result %s: %v", out.Result, err)
	}
	return r.Content[0].Text
}

func TestEverythingOverStdioNegotiatesListsAndCalls(t *testing.T) {
	m, evs := open(t, t.TempDir(), everything(t))
	if len(*evs) != 1 || (*evs)[0].typ != core.EvMCPServerStarted {
		t.Fatalf("events: %+v", *evs)
	}
	// The SDK's newest version is newer than the server's: the
	// handshake must settle on one both speak.
	if v := (*evs)[0].data["protocol_version"]; v != "2025-11-25" {
		t.Errorf("negotiated %v", v)
	}
	echo, ok := m.Lookup("mcp__everything__echo")
	if !ok || !strings.Contains(echo.Description, "Echoes back") || !strings.Contains(echo.Description, "server hints, not verified: read_only") {
		t.Fatalf("echo tool: %+v (%v)", echo, ok)
	}
	if _, ok := m.Lookup("mcp__everything__get-sum"); !ok {
		t.Fatal("get-sum is not offered")
	}
	out := m.Call(context.Background(), "mcp__everything__echo", json.RawMessage(`{"message":"hello from fluzo"}`))
	if !out.OK || text(t, out) != "Echo: hello from fluzo" {
		t.Errorf("echo: %+v %s", out, out.Result)
	}
	out = m.Call(context.Background(), "mcp__everything__get-sum", json.RawMessage(`{"a":2,"b":40}`))
	if !out.OK || !strings.Contains(text(t, out), "42") {
		t.Errorf("get-sum: %+v %s", out, out.Result)
	}
	var schemas []map[string]any
	for _, s := range m.Schemas() {
		var v map[string]any
		json.Unmarshal(s, &v)
		schemas = append(schemas, v)
	}
	if len(schemas) != len(m.Tools()) || schemas[0]["type"] != "function" {
		t.Errorf("schemas: %v", schemas)
	}
}

func TestAllowListLimitsTheOfferedTools(t *testing.T) {
	s := everything(t)
	s.Tools = []string{"echo"}
	m, evs := open(t, t.TempDir(), s)
	if got := m.Tools(); len(got) != 1 || got[0].Model != "mcp__everything__echo" {
		t.Fatalf("tools: %+v", got)
	}
	if _, ok := (*evs)[0].data["skipped"]; !ok {
		t.Error("skipped tools are not recorded")
	}
	if out := m.Call(context.Background(), "mcp__everything__get-sum", json.RawMessage(`{"a":1,"b":2}`)); out.OK || out.Error.Details["reason"] != ReasonNoSuchTool {
		t.Errorf("a tool outside the allow-list ran: %+v", out)
	}
}

func TestHostileDescriptionAndResultAreSanitized(t *testing.T) {
	dir := npmDir(t)
	hostile, _ := filepath.Abs("testdata/hostile.mjs")
	m, _ := open(t, t.TempDir(), stdioServer("hostile", "node", hostile, dir))
	tool, ok := m.Lookup("mcp__hostile__note")
	if !ok {
		t.Fatalf("tools: %+v", m.Tools())
	}
	if strings.ContainsAny(tool.Description, "\x1b\x07") || !strings.Contains(tool.Description, `\x1b]0;pwned`) {
		t.Errorf("description not sanitized: %q", tool.Description)
	}
	out := m.Call(context.Background(), "mcp__hostile__note", nil)
	if strings.ContainsAny(string(out.Result), "\x1b\x07") || strings.Contains(string(out.Result), `\u001b`) {
		t.Errorf("result not sanitized: %s", out.Result)
	}
	if !out.OK || !strings.HasPrefix(text(t, out), "note body") {
		t.Errorf("result: %+v", out)
	}
}

func TestServerKilledMidCallIsUnknownThenRestarted(t *testing.T) {
	m, evs := open(t, t.TempDir(), everything(t))
	pid := (*evs)[0].data["pid"].(int)
	done := make(chan Outcome, 1)
	go func() {
		done <- m.Call(context.Background(), "mcp__everything__trigger-long-running-operation", json.RawMessage(`{"duration":60,"steps":60}`))
	}()
	time.Sleep(1500 * time.Millisecond) // the request is out (no answer for 60s)
	unix.Kill(pid, unix.SIGKILL)
	out := <-done
	if !out.Unknown || out.OK || out.Error.Details["reason"] != ReasonServerLost {
		t.Fatalf("outcome: %+v", out)
	}
	var types []string
	for _, e := range *evs {
		types = append(types, e.typ)
	}
	if strings.Join(types, ",") != "mcp.server.started,mcp.server.lost,mcp.server.restarted" {
		t.Errorf("events: %v", types)
	}
	// The restarted server answers later calls; the lost one is not
	// replayed.
	if out := m.Call(context.Background(), "mcp__everything__echo", json.RawMessage(`{"message":"again"}`)); !out.OK {
		t.Errorf("after restart: %+v", out)
	}
}

func TestRestartsAreBounded(t *testing.T) {
	s := everything(t)
	s.MaxRestarts = 0
	m, evs := open(t, t.TempDir(), s)
	unix.Kill((*evs)[0].data["pid"].(int), unix.SIGKILL)
	waitFor(t, func() bool { return !m.servers[0].alive() }, 10*time.Second)
	out := m.Call(context.Background(), "mcp__everything__echo", json.RawMessage(`{"message":"x"}`))
	if out.OK || out.Unknown || out.Error.Details["reason"] != ReasonServerLost {
		t.Errorf("outcome: %+v", out)
	}
	if len(m.Tools()) != 0 {
		t.Error("a lost server's tools are still offered")
	}
}

func TestFilesystemServerIsRootedInTheWorkspace(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "inside.txt"), []byte("inside the workspace"), 0o644)
	s := stdioServer("fs", "node", filepath.Join(npmDir(t), filesystemJS), ws)
	m, _ := open(t, ws, s)
	out := m.Call(context.Background(), "mcp__fs__read_text_file", json.RawMessage(`{"path":"`+filepath.Join(ws, "inside.txt")+`"}`))
	if !out.OK || !strings.Contains(text(t, out), "inside the workspace") {
		t.Fatalf("read inside: %+v %s", out, out.Result)
	}
	out = m.Call(context.Background(), "mcp__fs__read_text_file", json.RawMessage(`{"path":"/etc/hostname"}`))
	if out.OK || !strings.Contains(string(out.Result), "denied") {
		t.Errorf("read outside the workspace: %+v %s", out, out.Result)
	}
}

func TestStdioEnvironmentIsExplicit(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-not-for-children")
	t.Setenv("MY_SERVICE_TOKEN", "token-by-reference")
	s := everything(t)
	s.SecretEnv = map[string]string{"SERVICE_TOKEN": "MY_SERVICE_TOKEN"}
	s.Env = map[string]string{"LITERAL": "yes"}
	m, _ := open(t, t.TempDir(), s)
	out := m.Call(context.Background(), "mcp__everything__get-env", nil)
	env := text(t, out)
	if strings.Contains(env, "sk-not-for-children") || !strings.Contains(env, "token-by-reference") || !strings.Contains(env, `"LITERAL": "yes"`) {
		t.Errorf("server environment: %s", env)
	}
}

func TestMissingSecretReferenceFailsTheServerTyped(t *testing.T) {
	s := everything(t)
	s.SecretEnv = map[string]string{"SERVICE_TOKEN": "FLUZO_TEST_UNSET_VARIABLE"}
	m, evs := open(t, t.TempDir(), s)
	if len(m.Tools()) != 0 || len(*evs) != 1 || (*evs)[0].typ != core.EvMCPServerFailed {
		t.Fatalf("events: %+v", *evs)
	}
	fe := (*evs)[0].data["error"].(*core.Error)
	if fe.Code != core.CodeConfigurationRequired || !strings.Contains(fe.Message, "FLUZO_TEST_UNSET_VARIABLE") {
		t.Errorf("error: %+v", fe)
	}
}

func waitFor(t *testing.T, cond func() bool, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAnnouncedListChangeIsAppliedBySync(t *testing.T) {
	hostile, _ := filepath.Abs("testdata/hostile.mjs")
	m, evs := open(t, t.TempDir(), stdioServer("hostile", "node", hostile, npmDir(t)))
	if _, ok := m.Lookup("mcp__hostile__extra"); ok {
		t.Fatal("extra is offered before it exists")
	}
	if m.Sync(context.Background()) {
		t.Fatal("Sync changed an unchanged list")
	}
	if out := m.Call(context.Background(), "mcp__hostile__grow", nil); !out.OK {
		t.Fatalf("grow: %+v", out)
	}
	// The notification is asynchronous: wait for the server's word, not
	// for time.
	waitFor(t, func() bool { return m.servers[0].changed.Load() }, 10*time.Second)
	if !m.Sync(context.Background()) {
		t.Fatal("Sync did not apply the change")
	}
	if _, ok := m.Lookup("mcp__hostile__extra"); !ok {
		t.Errorf("extra is not offered after the change: %+v", m.Tools())
	}
	last := (*evs)[len(*evs)-1]
	if last.typ != core.EvMCPToolsChanged {
		t.Errorf("events: %+v", *evs)
	}
}

func TestStderrTailRedactsTheSecretsGivenToTheServer(t *testing.T) {
	t.Setenv("MCP_TEST_SECRET", "s3cr3t-value")
	s := stdioServer("leaky", "sh", "-c", `echo "starting with token $SERVICE_TOKEN" >&2; exit 3`)
	s.SecretEnv = map[string]string{"SERVICE_TOKEN": "MCP_TEST_SECRET"}
	_, evs := open(t, t.TempDir(), s)
	if len(*evs) != 1 || (*evs)[0].typ != core.EvMCPServerFailed {
		t.Fatalf("events: %+v", *evs)
	}
	fe := (*evs)[0].data["error"].(*core.Error)
	tail, _ := fe.Details["stderr_tail"].(string)
	if strings.Contains(tail, "s3cr3t-value") || !strings.Contains(tail, "starting with token <redacted>") {
		t.Errorf("stderr tail: %q", tail)
	}
}
