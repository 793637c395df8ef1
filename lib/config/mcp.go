package config

import (
	"net"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// MCPServer is one validated [mcp.servers.NAME] entry. Secret values are
// never here: SecretEnv and HeaderEnv map to the names of the environment
// variables holding them, resolved only by the process that connects.
type MCPServer struct {
	Name       string
	Transport  string
	Enabled    bool
	Command    []string
	Cwd        string
	InheritEnv []string
	Env        map[string]string
	SecretEnv  map[string]string
	URL        string
	HeaderEnv  map[string]string
	Tools      []string
	DenyTools  []string
	// Startup bounds start, handshake and the first tools/list; Call one
	// tools/call.
	StartupSeconds int64
	CallSeconds    int64
	MaxRestarts    int
}

// MCPServers returns every declared MCP server in file order.
func (c *Config) MCPServers() []MCPServer {
	var out []MCPServer
	for _, id := range c.ids["mcp.servers"] {
		p := "mcp.servers." + id + "."
		out = append(out, MCPServer{
			Name: id, Transport: c.String(p + "transport"), Enabled: c.Bool(p + "enabled"),
			Command: c.Strings(p + "command"), Cwd: c.String(p + "cwd"),
			InheritEnv: c.Strings(p + "inherit_env"), Env: c.StringMap(p + "env"), SecretEnv: c.StringMap(p + "secret_env"),
			URL: c.String(p + "url"), HeaderEnv: c.StringMap(p + "header_env"),
			Tools: c.Strings(p + "tools"), DenyTools: c.Strings(p + "deny_tools"),
			StartupSeconds: c.Int(p + "startup_timeout_seconds"), CallSeconds: c.Int(p + "call_timeout_seconds"),
			MaxRestarts: int(c.Int(p + "max_restarts")),
		})
	}
	return out
}

// mcpToolName is the alphabet MCP allows in a tool name that Fluzo can offer as
// mcp__NAME__TOOL to an OpenAI-compatible model.
var mcpToolName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// headerName is an HTTP header field name (RFC 9110 token).
var headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// checkMCPServers validates each server's fields together: what its
// transport needs, and that secrets appear only as references.
func checkMCPServers(c *Config, ds *diagnostics) {
	for _, s := range c.MCPServers() {
		p := "mcp.servers." + s.Name + "."
		if strings.Contains(s.Name, "__") {
			ds.add("mcp.servers."+s.Name, "a name without \"__\"", "the server name %q contains \"__\", which separates the parts of mcp__NAME__TOOL", s.Name)
		}
		switch s.Transport {
		case MCPStdio:
			checkMCPStdio(ds, p, s)
		case MCPHTTP:
			checkMCPHTTP(ds, p, s)
		}
		for _, list := range []string{"tools", "deny_tools"} {
			for _, t := range c.Strings(p + list) {
				if len(t) > 64 || !mcpToolName.MatchString(t) {
					ds.add(p+list, "MCP tool names (letters, digits, '_', '-', '.')", "%q is not a tool name Fluzo can offer", t)
				}
			}
		}
	}
}

func checkMCPStdio(ds *diagnostics, p string, s MCPServer) {
	if len(s.Command) == 0 || s.Command[0] == "" {
		ds.add(p+"command", `an argv such as ["node", "server.js"]`, "a stdio server needs a command")
	}
	if s.URL != "" {
		ds.add(p+"url", `transport = "http"`, "url is for http servers; this one uses stdio")
	}
	if c := path.Clean(s.Cwd); path.IsAbs(s.Cwd) || c == ".." || strings.HasPrefix(c, "../") {
		ds.add(p+"cwd", "a directory inside the workspace", "%q is outside the workspace", s.Cwd)
	}
	for _, n := range s.InheritEnv {
		if !envName.MatchString(n) {
			ds.add(p+"inherit_env", "environment variable names", "%q is not an environment variable name", n)
		} else if looksSecret(n) {
			ds.add(p+"inherit_env", "non-secret names; pass secrets with secret_env", "%s looks like a secret; name it in secret_env instead", n)
		}
	}
	for n := range s.Env {
		if !envName.MatchString(n) {
			ds.add(p+"env", "environment variable names", "%q is not an environment variable name", n)
		} else if looksSecret(n) {
			ds.add(p+"env", "non-secret literals only; pass secrets with secret_env", "%s looks like a secret; literal credentials are not allowed in .fluzo", n)
		}
	}
	checkReferences(ds, p+"secret_env", s.SecretEnv, envName, "environment variable names")
}

func checkMCPHTTP(ds *diagnostics, p string, s MCPServer) {
	if len(s.Command) > 0 {
		ds.add(p+"command", `transport = "stdio"`, "command is for stdio servers; this one uses http")
	}
	checkURL(ds, p+"url", s.URL, true)
	if u, err := url.Parse(s.URL); err == nil && u.Scheme == "http" && u.Host != "" && !loopbackHost(u.Hostname()) {
		ds.add(p+"url", "https, or http to a loopback host (127.0.0.1, ::1, localhost)", "plain HTTP to %s would expose the session", u.Hostname())
	}
	checkReferences(ds, p+"header_env", s.HeaderEnv, headerName, "HTTP header names")
}

// checkReferences checks a NAME = ENV_VAR table of secret references.
func checkReferences(ds *diagnostics, key string, refs map[string]string, names *regexp.Regexp, what string) {
	for k, v := range refs {
		if !names.MatchString(k) {
			ds.add(key, what, "%q is not valid here", k)
		}
		if !envName.MatchString(v) {
			ds.add(key, "the NAME of an environment variable holding the secret", "the value of %s is not a variable name; literal secrets are not allowed in .fluzo (the value is not shown)", k)
		}
	}
}

func looksSecret(name string) bool {
	return credentialName.MatchString(strings.ToLower(name)) || strings.Contains(strings.ToUpper(name), "API_KEY")
}

// loopbackHost accepts "localhost" and loopback IP literals; a name that
// merely resolves to loopback is not proof (the same rule as OTLP).
func loopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
