package agent

import "github.com/josecorral/fluzo/lib/envname"

// toolServerEnv is fluzo-tool's whole environment: the owner's, without
// any credential-looking variable (provider keys, OTLP headers, cloud and
// Fluzo credentials) and without every configured api_key_env, whatever it
// is called. The agent alone resolves keys; an approved command reading
// /proc/$PPID/environ finds none.
func (w *Owner) toolServerEnv(environ []string) []string {
	var keyVars []string
	for _, id := range w.Config.IDs("models") {
		if v := w.Config.String("models." + id + ".api_key_env"); v != "" {
			keyVars = append(keyVars, v)
		}
	}
	return envname.Scrub(environ, keyVars)
}
