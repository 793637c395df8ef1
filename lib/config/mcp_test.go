package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestMCPServersLoadInFileOrder(t *testing.T) {
	c, err := Parse([]byte(`schema_version = 1

[mcp.servers.everything]
command = ["node", "server.js", "stdio"]
inherit_env = ["NODE_OPTIONS"]
env = { LOG_LEVEL = "debug" }
secret_env = { SERVICE_TOKEN = "MY_SERVICE_TOKEN" }
tools = ["echo", "get-sum"]
deny_tools = ["get-env"]
call_timeout_seconds = 5

[mcp.servers.remote]
transport = "http"
url = "https://mcp.example.com/mcp"
header_env = { Authorization = "REMOTE_MCP_AUTH" }
enabled = false
`), "ws/.fluzo")
	if err != nil {
		t.Fatal(err)
	}
	got := c.MCPServers()
	if len(got) != 2 || got[0].Name != "everything" || got[1].Name != "remote" {
		t.Fatalf("servers: %+v", got)
	}
	e := got[0]
	if e.Transport != MCPStdio || !e.Enabled || !reflect.DeepEqual(e.Command, []string{"node", "server.js", "stdio"}) ||
		e.Cwd != "." || e.CallSeconds != 5 || e.StartupSeconds != 30 || e.SecretEnv["SERVICE_TOKEN"] != "MY_SERVICE_TOKEN" ||
		!reflect.DeepEqual(e.DenyTools, []string{"get-env"}) {
		t.Errorf("stdio server: %+v", e)
	}
	r := got[1]
	if r.Transport != MCPHTTP || r.Enabled || r.URL != "https://mcp.example.com/mcp" || r.HeaderEnv["Authorization"] != "REMOTE_MCP_AUTH" {
		t.Errorf("http server: %+v", r)
	}
	if v := c.values["mcp.servers.remote.url"]; v.Line != 14 || v.File != "ws/.fluzo" {
		t.Errorf("provenance of url: %+v", v)
	}
}

func TestNoMCPServerByDefault(t *testing.T) {
	if s := Defaults().MCPServers(); len(s) != 0 {
		t.Errorf("defaults declare servers: %+v", s)
	}
}

func TestMCPDiagnosticsCarryFileLineAndKey(t *testing.T) {
	cases := []struct {
		name, text, key, problem string
		line                     int
	}{
		{"no command", "schema_version = 1\n[mcp.servers.a]\nenabled = true\n", "mcp.servers.a.command", "needs a command", 2},
		{"unknown field", "schema_version = 1\n[mcp.servers.a]\ncommand = [\"x\"]\ncomand = [\"x\"]\n", "mcp.servers.a.comand", "unknown key", 4},
		{"bad transport", "schema_version = 1\n[mcp.servers.a]\ntransport = \"sse\"\n", "mcp.servers.a.transport", "not a supported value", 3},
		{"http without url", "schema_version = 1\n[mcp.servers.a]\ntransport = \"http\"\n", "mcp.servers.a.url", "a URL is required", 2},
		{"plain http remote", "schema_version = 1\n[mcp.servers.a]\ntransport = \"http\"\nurl = \"http://mcp.example.com/mcp\"\n", "mcp.servers.a.url", "plain HTTP", 4},
		{"literal secret", "schema_version = 1\n[mcp.servers.a]\ncommand = [\"x\"]\nenv = { SERVICE_TOKEN = \"abc\" }\n", "mcp.servers.a.env", "looks like a secret", 4},
		{"secret value not a name", "schema_version = 1\n[mcp.servers.a]\ncommand = [\"x\"]\nsecret_env = { T = \"sk-live-1\" }\n", "mcp.servers.a.secret_env", "literal secrets are not allowed", 4},
		{"header literal", "schema_version = 1\n[mcp.servers.a]\ntransport = \"http\"\nurl = \"https://h/mcp\"\nheader_env = { Authorization = \"Bearer x\" }\n", "mcp.servers.a.header_env", "literal secrets", 5},
		{"cwd outside", "schema_version = 1\n[mcp.servers.a]\ncommand = [\"x\"]\ncwd = \"../up\"\n", "mcp.servers.a.cwd", "outside the workspace", 4},
		{"double underscore", "schema_version = 1\n[mcp.servers.a__b]\ncommand = [\"x\"]\n", "mcp.servers.a__b", "separates the parts", 2},
		{"bad tool name", "schema_version = 1\n[mcp.servers.a]\ncommand = [\"x\"]\ntools = [\"a b\"]\n", "mcp.servers.a.tools", "not a tool name", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := diagnose(t, c.text)[0]
			if d.Key != c.key || !strings.Contains(d.Problem, c.problem) || d.Line != c.line || d.File != "ws/.fluzo" {
				t.Errorf("got %+v (%s)", d, d)
			}
			if strings.Contains(d.String(), "sk-live") {
				t.Errorf("diagnostic echoes a secret: %s", d)
			}
		})
	}
}
