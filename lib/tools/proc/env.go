package proc

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/envname"
)

// Baseline lists the variables a child inherits from fluzo-tool's own
// environment without being asked: what compilers, shells and test
// runners need to find their tools, home, locale and temporary directory.
// Everything else — provider and OTLP credentials, tokens, agent sockets,
// loader and shell-startup overrides — is left behind unless named.
var Baseline = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR"}

// Toolchain lists the variables toolchains use to find themselves, their
// caches and their packages, also inherited without being asked: without
// them a toolchain installed outside HOME (official Rust and Go images set
// RUSTUP_HOME, CARGO_HOME and GOPATH to /usr/local/...) does not run, and
// a build starts from an empty cache. They name directories and build
// options, never credentials — which is why GOPROXY, GOPRIVATE, GONOSUMDB,
// npm_config_registry and the like, which can embed a user and password in
// a URL, are not here — and the secret filter still applies on top. Keep
// the fluzo-tool man page (Environment) in step with this list.
var Toolchain = []string{
	// Rust
	"RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "CARGO_HOME", "CARGO_TARGET_DIR",
	// Go
	"GOROOT", "GOPATH", "GOBIN", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOTOOLCHAIN",
	// Java
	"JAVA_HOME",
	// Python
	"PYTHONPATH", "VIRTUAL_ENV", "PYENV_ROOT", "CONDA_PREFIX",
	// JavaScript
	"NODE_PATH", "NVM_DIR", "PNPM_HOME", "npm_config_cache", "npm_config_prefix",
	// Ruby, .NET
	"GEM_HOME", "GEM_PATH", "DOTNET_ROOT",
	// where caches default to when HOME is not the place
	"XDG_CACHE_HOME",
}

// forbidden names can inject code into a child (loader preloads, shell
// startup files) and are refused even when set explicitly (the rule is
// lib/envname's, shared with configuration validation).
func forbidden(name string) bool { return envname.Injecting(name) }

// Secret reports whether a variable name looks credential-bearing or is
// Fluzo's own; such names are never inherited, even when listed.
func Secret(name string) bool { return envname.Uninheritable(name) && !envname.Injecting(name) }

// EnvPolicy is the configured part of every child's environment.
type EnvPolicy struct {
	// Set holds configured non-secret values (name → value).
	Set map[string]string
	// Inherit names extra parent variables to pass through.
	Inherit []string
}

// Validate refuses inheritance of secrets and code-injecting names.
func (p EnvPolicy) Validate() error {
	for _, n := range p.Inherit {
		if Secret(n) || forbidden(n) {
			return core.Errorf(core.CodeInvalidRequest, "the variable %s may carry a secret or inject code and cannot be inherited", n).
				WithHint("pass a reviewed, non-secret value instead")
		}
	}
	for n := range p.Set {
		if err := checkName(n); err != nil {
			return err
		}
	}
	return nil
}

func checkName(n string) error {
	if n == "" || strings.ContainsAny(n, "=\x00") {
		return core.Errorf(core.CodeInvalidRequest, "%q is not a valid environment variable name", n).WithHint("use NAME without = or NUL")
	}
	if forbidden(n) {
		return core.Errorf(core.CodeInvalidRequest, "the variable %s can inject code into every child and is refused", n).
			WithHint("remove it; loader and shell-startup overrides are never passed to tools")
	}
	return nil
}

// Build returns the child environment: the baseline, the toolchain
// variables and LC_* from parent, TERM=dumb, the policy's inherited names
// and values, then the request's own values (request wins). PATH keeps only absolute entries, so an
// implicit "." never broadens what an executable name resolves to.
func Build(parent []string, policy EnvPolicy, request map[string]string) ([]string, error) {
	from := map[string]string{}
	for _, kv := range parent {
		if k, v, ok := strings.Cut(kv, "="); ok {
			from[k] = v
		}
	}
	env := map[string]string{}
	for _, k := range Baseline {
		if v, ok := from[k]; ok {
			env[k] = v
		}
	}
	for _, k := range Toolchain {
		if v, ok := from[k]; ok && !Secret(k) {
			env[k] = v
		}
	}
	for k, v := range from {
		if strings.HasPrefix(k, "LC_") {
			env[k] = v
		}
	}
	for _, k := range policy.Inherit {
		if v, ok := from[k]; ok && !Secret(k) && !forbidden(k) {
			env[k] = v
		}
	}
	for k, v := range policy.Set {
		env[k] = v
	}
	for k, v := range request {
		if err := checkName(k); err != nil {
			return nil, err
		}
		env[k] = v
	}
	env["TERM"] = "dumb"
	env["PATH"] = absolutePath(env["PATH"])
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out, nil
}

func absolutePath(p string) string {
	var keep []string
	for _, d := range filepath.SplitList(p) {
		if filepath.IsAbs(d) {
			keep = append(keep, d)
		}
	}
	if len(keep) == 0 {
		return "/usr/local/bin:/usr/bin:/bin"
	}
	return strings.Join(keep, ":")
}

// LookPath resolves name against the PATH of env. A name containing a
// slash is used as given (relative to the child's working directory);
// a bare name only matches in absolute PATH entries.
func LookPath(name string, env []string) (string, error) {
	if name == "" {
		return "", core.Errorf(core.CodeInvalidRequest, "argv[0] is empty").WithHint("give the program to run as argv[0]")
	}
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		full := filepath.Join(dir, name)
		if st, err := os.Stat(full); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return full, nil
		}
	}
	return "", core.Errorf("executable_not_found", "%q was not found on the tool PATH", name).
		WithHint("install it, use an absolute path, or check the configured PATH; exec never falls back to a shell").With("path", path)
}
