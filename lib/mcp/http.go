package mcp

import (
	"net/http"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

// httpTransport is a streamable HTTP connection to s.URL. Like every
// Fluzo client it never follows a redirect (a redirect could carry the
// session and its headers elsewhere); header values come from the
// environment variables the configuration names.
func httpTransport(s config.MCPServer, getenv func(string) string) (*httpConn, error) {
	headers := http.Header{}
	for name, ref := range s.HeaderEnv {
		v := getenv(ref)
		if v == "" {
			return nil, core.Errorf(core.CodeConfigurationRequired, "MCP server %q needs the environment variable %s (for header %s), which is empty", s.Name, ref, name).
				With("key", "mcp.servers."+s.Name+".header_env").WithHint("export %s before running Fluzo", ref)
		}
		headers.Set(name, v)
	}
	client := &http.Client{
		Transport: &headerTransport{base: http.DefaultTransport, headers: headers},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errRedirect
		},
	}
	return newHTTPConn(client, s.URL), nil
}

// errRedirect is the typed refusal of a redirect.
var errRedirect = core.Errorf(core.CodeProviderError, "the MCP server answered with a redirect, which Fluzo never follows").
	With("reason", "redirect_blocked").WithHint("configure the final URL in mcp.servers.NAME.url")

type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header[k] = v
		}
	}
	return h.base.RoundTrip(r)
}
