// Package envname is the one rule about environment variable names that
// Fluzo's security depends on: which look credential-bearing (never passed
// to fluzo-tool or to a command), which inject code into a shell or loader
// (never passed to a command), and what a command may therefore inherit.
// Configuration validation, the agent's scrub of the fluzo-tool
// environment and fluzo-tool's child environment all call it, so a name
// that validation accepts is never dropped later without a word.
package envname

import "strings"

// credentialSuffixes end the names of keys, tokens and passwords.
var credentialSuffixes = []string{
	"_KEY", "_APIKEY", "_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_PASS", "_PWD_HASH",
	"_CREDENTIAL", "_CREDENTIALS", "_AUTH",
}

// credentialNames are well-known credential carriers without a telling
// suffix: agent sockets, netrc and cloud keys.
var credentialNames = map[string]bool{
	"SSH_AUTH_SOCK": true, "GPG_AGENT_INFO": true, "NETRC": true, "GITHUB_TOKEN": true, "GH_TOKEN": true,
	"GOOGLE_APPLICATION_CREDENTIALS": true, "KUBECONFIG": true, "DOCKER_AUTH_CONFIG": true, "NPM_TOKEN": true,
}

// credentialPrefixes start whole families of credential settings: cloud
// provider keys and OTLP exporter headers (which carry authorization).
var credentialPrefixes = []string{"AWS_", "AZURE_", "OTEL_EXPORTER_OTLP_"}

// Credential reports whether name looks credential-bearing.
func Credential(name string) bool {
	u := strings.ToUpper(name)
	if credentialNames[u] || strings.Contains(u, "PASSWORD") || strings.Contains(u, "SECRET") || strings.Contains(u, "API_KEY") {
		return true
	}
	for _, s := range credentialSuffixes {
		if strings.HasSuffix(u, s) {
			return true
		}
	}
	for _, p := range credentialPrefixes {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// Injecting reports whether name makes a shell or the dynamic loader run
// code of the variable's choosing (startup files, preloads, exported
// functions); such names are refused even as reviewed literals.
func Injecting(name string) bool {
	switch name {
	case "BASH_ENV", "ENV", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "PS4", "IFS":
		return true
	}
	return strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "BASH_FUNC_") || strings.HasPrefix(name, "DYLD_")
}

// Uninheritable reports whether a command may never inherit name from
// fluzo-tool: credentials, code injectors, and Fluzo's own variables (the
// runtime's, not the command's).
func Uninheritable(name string) bool {
	return Credential(name) || Injecting(name) || strings.HasPrefix(strings.ToUpper(name), "FLUZO_")
}

// Scrub returns env (NAME=VALUE entries) without credential-looking names
// and without the names in also (e.g. the configured api_key_env
// variables, whatever they are called). fluzo-tool starts with it: the
// agent alone resolves provider keys.
func Scrub(env []string, also []string) []string {
	drop := map[string]bool{}
	for _, n := range also {
		drop[n] = true
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if drop[name] || Credential(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
