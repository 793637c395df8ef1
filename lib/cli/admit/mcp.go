package admit

import (
	"context"
	"encoding/json"
	"io"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/mcp"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "list the configured MCP servers, or connect to one and list its tools",
		Commands: []*cli.Command{
			{Name: "list", Usage: "print each configured [mcp.servers.NAME] as one JSON line (contacts nothing)", Action: mcpList},
			{Name: "tools", Usage: "start or reach server NAME, list the tools it offers as JSON lines, and stop it", ArgsUsage: "NAME",
				Description: `Connects to the server exactly as the agent would (a stdio server runs under the
same process contract as commands; an http server is reached without following
redirects), negotiates the protocol, and prints one line per tool with the name
the model sees (mcp__NAME__TOOL), its sanitized description, the server's hints
(shown, never trusted) and the grant spec that allows it. A server that cannot
start exits 1 with its typed error. Calls no tool.`,
				Action: mcpTools},
		},
	}
}

// mcpServerLine is one configured server, without any secret (only the
// names of the variables holding them).
type mcpServerLine struct {
	V         int               `json:"v"`
	Type      string            `json:"type"`
	Name      string            `json:"name"`
	Transport string            `json:"transport"`
	Enabled   bool              `json:"enabled"`
	Command   []string          `json:"command,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	URL       string            `json:"url,omitempty"`
	SecretEnv map[string]string `json:"secret_env,omitempty"`
	HeaderEnv map[string]string `json:"header_env,omitempty"`
	Tools     []string          `json:"tools,omitempty"`
	DenyTools []string          `json:"deny_tools,omitempty"`
}

func mcpList(_ context.Context, c *cli.Command) error {
	cfg, err := openConfig(c)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(c.Root().Writer)
	for _, s := range cfg.MCPServers() {
		line := mcpServerLine{V: core.WireVersion, Type: "mcp_server", Name: s.Name, Transport: s.Transport, Enabled: s.Enabled,
			SecretEnv: s.SecretEnv, HeaderEnv: s.HeaderEnv, Tools: s.Tools, DenyTools: s.DenyTools}
		if s.Transport == config.MCPHTTP {
			line.URL = s.URL
		} else {
			line.Command, line.Cwd = s.Command, s.Cwd
		}
		enc.Encode(line)
	}
	return nil
}

type mcpToolLine struct {
	V           int      `json:"v"`
	Type        string   `json:"type"`
	Server      string   `json:"server"`
	Name        string   `json:"name"`
	ModelName   string   `json:"model_name"`
	Description string   `json:"description"`
	Hints       []string `json:"hints,omitempty"`
	Grant       string   `json:"grant"`
}

func mcpTools(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() != 1 {
		return runner.Usage(c, "tools needs the NAME of one [mcp.servers.NAME]")
	}
	name := c.Args().First()
	cfg, err := openConfig(c)
	if err != nil {
		return err
	}
	var srv *config.MCPServer
	for _, s := range cfg.MCPServers() {
		if s.Name == name {
			s.Enabled = true // an explicit request lists a disabled server too
			srv = &s
		}
	}
	if srv == nil {
		return core.Errorf(core.CodeInvalidRequest, "no MCP server named %q is configured", termsafe.Line(name)).
			WithHint("list them with: fluzo-admit mcp list")
	}
	var failure error
	// The server runs in the commands' sandbox, as under the agent.
	m, err := mcp.Open(ctx, []config.MCPServer{*srv}, mcp.Options{Root: c.String("workspace"), Sandbox: mcp.SandboxSettings(cfg), Record: func(typ string, data any) {
		if d, ok := data.(map[string]any); ok && typ == core.EvMCPServerFailed {
			failure, _ = d["error"].(error)
		}
	}})
	if err != nil {
		return err
	}
	defer m.Close()
	if failure != nil {
		return failure
	}
	return printTools(c.Root().Writer, m.Tools())
}

func printTools(w io.Writer, tools []mcp.Tool) error {
	enc := json.NewEncoder(w)
	for _, t := range tools {
		server, part, _ := mcp.SplitModelName(t.Model)
		enc.Encode(mcpToolLine{V: core.WireVersion, Type: "mcp_tool", Server: t.Server, Name: termsafe.Line(t.Name), ModelName: t.Model,
			Description: t.Description, Hints: t.Hints, Grant: "mcp:" + server + "/" + part})
	}
	return nil
}
