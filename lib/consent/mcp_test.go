package consent

import (
	"testing"

	"github.com/josecorral/fluzo/lib/config"
)

func TestMCPServersOverHTTPAreReviewedDestinations(t *testing.T) {
	cfg, err := config.Parse([]byte(`schema_version = 1
[mcp.servers.remote]
transport = "http"
url = "https://mcp.example.com/mcp"
header_env = { Authorization = "REMOTE_MCP_AUTH" }
[mcp.servers.off]
transport = "http"
url = "https://off.example.com/mcp"
enabled = false
[mcp.servers.local]
command = ["node", "server.js"]
`), ".fluzo")
	if err != nil {
		t.Fatal(err)
	}
	var got []Destination
	for _, d := range Summarize(cfg).Destinations {
		if d.Purpose != "model coder" {
			got = append(got, d)
		}
	}
	want := Destination{Key: "mcp.servers.remote.url", Purpose: "mcp remote", URL: "https://mcp.example.com/mcp", Class: ClassHTTPS,
		Auth: "headers Authorization from REMOTE_MCP_AUTH"}
	if len(got) != 1 || got[0] != want {
		t.Errorf("destinations: %+v", got)
	}
	before := cfg.Fingerprint()
	if err := cfg.Override("mcp.servers.remote.url", "https://elsewhere.example.com/mcp"); err != nil {
		t.Fatal(err)
	}
	if cfg.Fingerprint() == before {
		t.Error("a changed MCP destination keeps the consent fingerprint")
	}
}
