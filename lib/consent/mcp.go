package consent

import (
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/config"
)

// mcpDestinations lists the enabled MCP servers reached over HTTP: each
// is a destination the session's tool calls and results travel to.
// (stdio servers are local children; their commands are covered by the
// fingerprint like every security setting.)
func mcpDestinations(cfg *config.Config) []Destination {
	var out []Destination
	for _, s := range cfg.MCPServers() {
		if !s.Enabled || s.Transport != config.MCPHTTP {
			continue
		}
		auth := "none"
		if len(s.HeaderEnv) > 0 {
			var refs []string
			for h, ref := range s.HeaderEnv {
				refs = append(refs, h+" from "+ref)
			}
			sort.Strings(refs)
			auth = "headers " + strings.Join(refs, ", ")
		}
		out = append(out, Destination{Key: "mcp.servers." + s.Name + ".url", Purpose: "mcp " + s.Name,
			URL: redact(s.URL), Class: Classify(s.URL), Auth: auth})
	}
	return out
}
