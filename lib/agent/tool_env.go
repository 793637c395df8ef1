package agent

import (
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/envname"
)

// toolServerEnv is fluzo-tool's whole environment: the owner's, without
// any credential-looking variable (provider keys, OTLP headers, cloud and
// Fluzo credentials) and without every configured api_key_env, whatever it
// is called. The agent alone resolves keys; an approved command reading
// /proc/$PPID/environ finds none.
func (w *Owner) toolServerEnv(environ []string) []string { return scrubbedToolEnv(w.Config, environ) }

// scrubbedToolEnv is toolServerEnv for the configuration cfg.
func scrubbedToolEnv(cfg *config.Config, environ []string) []string {
	var keyVars []string
	for _, id := range cfg.IDs("models") {
		if v := cfg.String("models." + id + ".api_key_env"); v != "" {
			keyVars = append(keyVars, v)
		}
	}
	return envname.Scrub(environ, keyVars)
}
