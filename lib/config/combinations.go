package config

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/envname"
	"github.com/josecorral/fluzo/lib/grantspec"
)

// checkCombinations validates related settings together (arch §10.1):
// model and pool references, context reserves, capacity identities and
// secret references. It runs after every key was individually valid.
func checkCombinations(c *Config, ds *diagnostics) {
	checkAgentModel(c, ds)
	for _, id := range c.ids["models"] {
		checkModel(c, ds, id)
	}
	checkCapacityIdentities(c, ds)
	checkLimits(c, ds)
	for _, id := range c.ids["capacity_pools"] {
		p := "capacity_pools." + id + "."
		if c.Int(p+"foreground_reserved_slots") > c.Int(p+"max_in_flight") {
			ds.add(p+"foreground_reserved_slots", "1 to max_in_flight",
				"reserves %d slots but the pool has max_in_flight = %d",
				c.Int(p+"foreground_reserved_slots"), c.Int(p+"max_in_flight"))
		}
	}
	if c.Bool("storage.auto_expire") {
		ds.add("storage.auto_expire", "false", "automatic expiry is not supported: history is kept until purged")
	}
	if c.Bool("telemetry.export_enabled") {
		checkURL(ds, "telemetry.otlp_endpoint", c.String("telemetry.otlp_endpoint"), true)
	}
	checkToolEnv(c, ds)
	checkMCPServers(c, ds)
	for _, spec := range c.Strings("policy.grants") {
		if problem := grantspec.Check(spec); problem != "" {
			ds.add("policy.grants", "grant specs such as \"exec:cargo test\"", "%s", problem)
		}
	}
}

func checkAgentModel(c *Config, ds *diagnostics) {
	m := c.String("agent.model")
	if !c.hasEntry("models", m) {
		ds.add("agent.model", "an id of a [models.<id>] table: "+strings.Join(c.ids["models"], ", "), "no model named %q", m)
	} else if c.String("models."+m+".provider") != ProviderOpenAI {
		ds.add("agent.model", "a model with provider = \"openai_compatible\"", "model %q is not a generative model", m)
	}
	if !c.Bool("decision.enabled") {
		return
	}
	d := c.String("decision.model")
	if !c.hasEntry("models", d) {
		ds.add("decision.model", "an id of a [models.<id>] table", "no model named %q", d)
	} else if c.String("models."+d+".provider") != ProviderLaya {
		ds.add("decision.model", "a model with provider = \"laya_systemone\"", "model %q is not a Laya model", d)
	}
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkToolEnv refuses, with the file and line of the key, every
// [tools.shell] entry that fluzo-tool would refuse or drop: a configured
// api_key_env, a credential-looking name, a code-injecting name, or (for
// inherit_env) Fluzo's own variables. Accepting them here would break or
// silently change every command later (the rule is lib/envname's).
func checkToolEnv(c *Config, ds *diagnostics) {
	keyVars := map[string]string{}
	for _, id := range c.ids["models"] {
		if v := c.String("models." + id + ".api_key_env"); v != "" {
			keyVars[v] = id
		}
	}
	names := c.StringMap("tools.shell.env")
	sorted := make([]string, 0, len(names))
	for name := range names {
		sorted = append(sorted, name)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		switch {
		case !envName.MatchString(name):
			ds.add("tools.shell.env", "environment variable names", "%q is not an environment variable name", name)
		case keyVars[name] != "":
			ds.add("tools.shell.env", "names other than a model's api_key_env", "%s is the API key variable of model %q; it is never given to commands", name, keyVars[name])
		case envname.Credential(name):
			ds.add("tools.shell.env", "non-secret literals only", "%s looks like a secret; literal credentials are not allowed in .fluzo", name)
		case envname.Injecting(name):
			ds.add("tools.shell.env", "names that do not inject code", "%s makes shells or the loader run code and is never set for commands", name)
		}
	}
	for _, name := range c.Strings("tools.shell.inherit_env") {
		switch {
		case keyVars[name] != "":
			ds.add("tools.shell.inherit_env", "names other than a model's api_key_env", "%s is the API key variable of model %q; commands never inherit it (the agent alone resolves keys)", name, keyVars[name])
		case envname.Credential(name):
			ds.add("tools.shell.inherit_env", "variables that carry no credential", "%s looks credential-bearing; commands never inherit it", name)
		case envname.Uninheritable(name):
			ds.add("tools.shell.inherit_env", "variables that inject no code and are not Fluzo's own", "%s is never passed to commands", name)
		}
	}
}

func checkModel(c *Config, ds *diagnostics, id string) {
	p := "models." + id + "."
	if pool := c.String(p + "pool"); !c.hasEntry("capacity_pools", pool) {
		ds.add(p+"pool", "an id of a [capacity_pools.<id>] table: "+strings.Join(c.ids["capacity_pools"], ", "),
			"no capacity pool named %q", pool)
	}
	switch c.String(p + "provider") {
	case ProviderOpenAI:
		checkURL(ds, p+"base_url", c.String(p+"base_url"), true)
		if c.String(p+"model") == "" {
			ds.add(p+"model", "the model name the endpoint serves", "an openai_compatible model needs a model name")
		}
		if c.Int(p+"max_output_tokens") >= c.Int(p+"context_window") {
			ds.add(p+"max_output_tokens", "less than context_window", "reserves %d output tokens of a %d-token context window",
				c.Int(p+"max_output_tokens"), c.Int(p+"context_window"))
		}
	case ProviderLaya:
		checkURL(ds, p+"endpoint", c.String(p+"endpoint"), true)
	}
	checkAuth(c, ds, p)
	checkTimeouts(c, ds, p)
}

func checkAuth(c *Config, ds *diagnostics, p string) {
	keyEnv, ref := c.String(p+"api_key_env"), c.String(p+"credential_ref")
	if keyEnv != "" && !envName.MatchString(keyEnv) {
		ds.add(p+"api_key_env", "the NAME of an environment variable, e.g. OPENAI_API_KEY",
			"this is not an environment variable name; literal credentials are not allowed in .fluzo")
	}
	switch c.String(p + "auth") {
	case AuthEnv:
		if keyEnv == "" {
			ds.add(p+"api_key_env", "an environment variable name", `auth = "env" needs api_key_env`)
		}
	case AuthCredential:
		if ref == "" {
			ds.add(p+"credential_ref", "an entry name in auth.toml", `auth = "credential" needs credential_ref`)
		} else if !validID(ref) {
			ds.add(p+"credential_ref", "letters, digits, '_' and '-'", "this is not an auth.toml entry name")
		}
	case AuthNone:
		if keyEnv != "" || ref != "" {
			ds.add(p+"auth", `"env" or "credential"`, `auth = "none" but a credential reference is set`)
		}
	}
}

func checkTimeouts(c *Config, ds *diagnostics, p string) {
	total := c.Int(p + "request_timeout_seconds")
	for _, k := range []string{"header_timeout_seconds", "first_output_timeout_seconds", "idle_timeout_seconds"} {
		if c.Int(p+k) > total {
			ds.add(p+k, "at most request_timeout_seconds", "%d s exceeds the whole-request deadline of %d s", c.Int(p+k), total)
		}
	}
}

// checkCapacityIdentities enforces that aliases sharing a capacity_id
// agree on their pool and max_in_flight, and that a Laya (shadow) model
// never shares a generative model's identity (§43.3).
func checkCapacityIdentities(c *Config, ds *diagnostics) {
	first := map[string]string{}
	for _, id := range c.ids["models"] {
		p := "models." + id + "."
		capID := c.CapacityID(id)
		other, seen := first[capID]
		if !seen {
			first[capID] = id
			continue
		}
		q := "models." + other + "."
		switch {
		case c.String(p+"provider") != c.String(q+"provider"):
			ds.add(p+"capacity_id", "a capacity_id not used by a model of another provider",
				"shares capacity %q with model %q of another provider; a shadow model must not use a foreground model's capacity", capID, other)
		case c.String(p+"pool") != c.String(q+"pool"):
			ds.add(p+"pool", "the pool of alias "+other, "aliases of capacity %q are in different pools", capID)
		case c.Int(p+"max_in_flight") != c.Int(q+"max_in_flight"):
			ds.add(p+"max_in_flight", "the max_in_flight of alias "+other, "aliases of capacity %q declare different max_in_flight", capID)
		}
	}
}

func checkURL(ds *diagnostics, key, raw string, required bool) {
	if raw == "" {
		if required {
			ds.add(key, "an http:// or https:// URL", "a URL is required")
		}
		return
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		ds.add(key, "an http:// or https:// URL with a host", "not a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		ds.add(key, "an http:// or https:// URL", "scheme %q is not supported", u.Scheme)
	case u.User != nil:
		ds.add(key, "a URL without user:password@", "URLs must not carry credentials; use auth and api_key_env")
	}
}

func (c *Config) hasEntry(coll, id string) bool {
	for _, e := range c.ids[coll] {
		if e == id {
			return true
		}
	}
	return false
}

// CapacityID returns the capacity identity of a model entry: its
// capacity_id, or the entry id when that is empty.
func (c *Config) CapacityID(model string) string {
	if v := c.String("models." + model + ".capacity_id"); v != "" {
		return v
	}
	return model
}

// checkLimits relates budgets and limits to the agent model (§43.1:
// limits are validated together against the selected model).
func checkLimits(c *Config, ds *diagnostics) {
	if c.Int("harness.shell_timeout_seconds") > c.Int("harness.max_active_seconds") {
		ds.add("harness.shell_timeout_seconds", "at most harness.max_active_seconds",
			"a command may not run longer (%d s) than the whole task (%d s)",
			c.Int("harness.shell_timeout_seconds"), c.Int("harness.max_active_seconds"))
	}
	m, ok := c.Model(c.String("agent.model"))
	if !ok || m.Provider != ProviderOpenAI {
		return
	}
	available := m.ContextWindow - m.MaxOutputTokens - c.Int("context.overhead_tokens")
	if available <= 0 {
		ds.add("context.overhead_tokens", "less than context_window minus max_output_tokens",
			"model %q has no input capacity left after reserved output and overhead", m.ID)
	}
	if c.Int("context.compaction_max_output_tokens") >= m.ContextWindow {
		ds.add("context.compaction_max_output_tokens", "less than the agent model's context_window",
			"a %d-token summary cannot fit model %q's %d-token context window",
			c.Int("context.compaction_max_output_tokens"), m.ID, m.ContextWindow)
	}
	if m.MaxOutputTokens > c.Int("harness.max_total_tokens") {
		ds.add("harness.max_total_tokens", "at least the agent model's max_output_tokens",
			"the task budget (%d tokens) cannot fit one response of model %q (%d tokens)",
			c.Int("harness.max_total_tokens"), m.ID, m.MaxOutputTokens)
	}
}
