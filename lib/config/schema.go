package config

// The .fluzo schema: every supported persistent setting, once (arch
// §10.1). Loading, validation, "config show", "config init", the man page
// settings reference and the TUI settings screens all read this table.

const (
	kib = 1024
	mib = 1024 * kib
	gib = 1024 * mib
)

func intSetting(key, unit string, def, min, max int64, apply Apply, p Privacy, desc string) Setting {
	return Setting{Key: key, Kind: KindInt, Unit: unit, Default: def, HasRange: true,
		Min: float64(min), Max: float64(max), Apply: apply, Privacy: p, Description: desc}
}

func floatSetting(key, unit string, def, min, max float64, apply Apply, p Privacy, desc string) Setting {
	return Setting{Key: key, Kind: KindFloat, Unit: unit, Default: def, HasRange: true,
		Min: min, Max: max, Apply: apply, Privacy: p, Description: desc}
}

func boolSetting(key string, def bool, apply Apply, p Privacy, desc string) Setting {
	return Setting{Key: key, Kind: KindBool, Default: def, Apply: apply, Privacy: p, Description: desc}
}

func stringSetting(key, def string, apply Apply, p Privacy, desc string) Setting {
	return Setting{Key: key, Kind: KindString, Default: def, Apply: apply, Privacy: p, Description: desc}
}

func enumSetting(key, def string, opts []string, apply Apply, p Privacy, desc string) Setting {
	return Setting{Key: key, Kind: KindEnum, Default: def, Options: opts, Apply: apply, Privacy: p, Description: desc}
}

const (
	ProviderOpenAI = "openai_compatible"
	ProviderLaya   = "laya_systemone"
	AuthNone       = "none"
	AuthEnv        = "env"
	AuthCredential = "credential"
	MCPStdio       = "stdio"
	MCPHTTP        = "http"
)

var askModes = []string{"allow", "ask", "deny"}

var schema = []Setting{
	intSetting("schema_version", "", 1, 1, 1, ApplyRestart, PrivacyPublic,
		"Version of this file's schema. Fluzo refuses versions it does not support."),
	stringSetting("project.name", "", ApplyFuture, PrivacyInfrastructure,
		"Display name of the project in the TUI and in session metadata."),

	enumSetting("agent.runtime", "native", []string{"native"}, ApplyRestart, PrivacyPublic,
		"Agent runtime. Only the built-in native loop exists in this release."),
	stringSetting("agent.model", "coder", ApplyFuture, PrivacyInfrastructure,
		"Id of the [models.<id>] entry used for agent turns and compaction."),

	enumSetting("models.*.provider", ProviderOpenAI, []string{ProviderOpenAI, ProviderLaya}, ApplySafeBoundary, PrivacyInfrastructure,
		"Protocol of the endpoint: OpenAI-compatible chat completions, or Laya System One observations."),
	stringSetting("models.*.base_url", "", ApplySafeBoundary, PrivacySecurity,
		"Base URL of an openai_compatible endpoint, e.g. http://127.0.0.1:8080/v1. A new or changed destination needs consent (fluzo-admit consent), loopback too; plain HTTP to another host needs the warned --allow-http exception."),
	stringSetting("models.*.endpoint", "", ApplySafeBoundary, PrivacySecurity,
		"Full URL of a laya_systemone endpoint. A new or changed destination needs consent (fluzo-admit consent)."),
	stringSetting("models.*.model", "", ApplySafeBoundary, PrivacyInfrastructure,
		"Model name sent to the endpoint."),
	enumSetting("models.*.auth", AuthNone, []string{AuthNone, AuthEnv, AuthCredential}, ApplySafeBoundary, PrivacySecurity,
		"How the request authenticates: none (trusted local endpoint), env (api_key_env) or credential (credential_ref in auth.toml). Never a literal key."),
	stringSetting("models.*.api_key_env", "", ApplySafeBoundary, PrivacyReference,
		"Name of the environment variable holding the API key when auth = \"env\"."),
	stringSetting("models.*.credential_ref", "", ApplySafeBoundary, PrivacyReference,
		"Entry name in ${XDG_CONFIG_HOME:-~/.config}/fluzo/auth.toml (mode 0600) when auth = \"credential\"."),
	intSetting("models.*.context_window", "tokens", 32768, 1024, 10_000_000, ApplySafeBoundary, PrivacyPublic,
		"Effective context window of the model. Confirm it for the selected model."),
	intSetting("models.*.max_output_tokens", "tokens", 4096, 1, 1_000_000, ApplySafeBoundary, PrivacyPublic,
		"Output tokens reserved for each response; available input is context_window minus this and overhead."),
	stringSetting("models.*.capacity_id", "", ApplySafeBoundary, PrivacyInfrastructure,
		"Capacity identity: aliases of one backend model share it and one max_in_flight. Empty means the entry id."),
	stringSetting("models.*.pool", "local_server", ApplySafeBoundary, PrivacyInfrastructure,
		"Id of the [capacity_pools.<id>] this model's requests count against."),
	intSetting("models.*.max_in_flight", "requests", 1, 1, 1024, ApplySafeBoundary, PrivacyPublic,
		"Per-process ceiling of concurrent requests to this capacity identity. Lowering drains; raising needs explicit apply."),
	intSetting("models.*.header_timeout_seconds", "seconds", 30, 1, 3600, ApplyFuture, PrivacyPublic,
		"Deadline for response headers after a request is sent."),
	intSetting("models.*.first_output_timeout_seconds", "seconds", 120, 1, 3600, ApplyFuture, PrivacyPublic,
		"Deadline for the first model output (not headers or keepalives)."),
	intSetting("models.*.idle_timeout_seconds", "seconds", 60, 1, 3600, ApplyFuture, PrivacyPublic,
		"Longest gap between meaningful model outputs once output began."),
	intSetting("models.*.request_timeout_seconds", "seconds", 600, 1, 86400, ApplyFuture, PrivacyPublic,
		"Whole-request deadline, bounded by the task's remaining active time."),
	floatSetting("models.*.input_price_per_mtok", "USD per million tokens", 0, 0, 1_000_000, ApplyFuture, PrivacyPublic,
		"Price of input tokens, for estimated cost telemetry only (never enforcement). Unset (the default) means no price: cost is shown as unknown, never zero."),
	floatSetting("models.*.output_price_per_mtok", "USD per million tokens", 0, 0, 1_000_000, ApplyFuture, PrivacyPublic,
		"Price of output tokens, for estimated cost telemetry only. Cost is estimated only when both prices are set."),

	intSetting("capacity_pools.*.max_in_flight", "requests", 1, 1, 1024, ApplySafeBoundary, PrivacyPublic,
		"Per-process ceiling of concurrent requests across every model in this pool."),
	intSetting("capacity_pools.*.foreground_reserved_slots", "requests", 1, 1, 1024, ApplySafeBoundary, PrivacyPublic,
		"Slots kept for foreground work; shadow observations may use max_in_flight minus this. From 1 to max_in_flight."),
	intSetting("capacity_pools.*.queue_capacity", "requests", 8, 0, 1024, ApplySafeBoundary, PrivacyPublic,
		"Foreground requests that may wait for a slot; more are refused with capacity_exhausted."),
	intSetting("capacity_pools.*.queue_timeout_seconds", "seconds", 30, 1, 3600, ApplySafeBoundary, PrivacyPublic,
		"Longest foreground wait (bounded by remaining active time) before capacity_wait_timeout."),

	boolSetting("decision.enabled", false, ApplyLive, PrivacySecurity,
		"Send bounded shadow observations to the Laya decision model. Observations never authorize or route anything."),
	enumSetting("decision.mode", "shadow", []string{"shadow"}, ApplyFuture, PrivacyPublic,
		"Decision mode. Only shadow observation exists in this release."),
	stringSetting("decision.model", "laya", ApplyFuture, PrivacyInfrastructure,
		"Id of the laya_systemone [models.<id>] entry used for observations."),
	intSetting("decision.timeout_seconds", "seconds", 5, 1, 300, ApplyFuture, PrivacyPublic,
		"Deadline of one observation request."),
	intSetting("decision.max_observations_per_task", "observations", 30, 0, 10000, ApplyFuture, PrivacyPublic,
		"Most observations sent for one task."),
	intSetting("decision.failure_pause_threshold", "failures", 3, 1, 100, ApplyFuture, PrivacyPublic,
		"Consecutive failures after which the observer pauses itself."),

	intSetting("harness.max_turns", "turns", 30, 1, 10000, ApplySafeBoundary, PrivacyPublic,
		"Most logical agent turns per task; transport retries and compaction are not turns."),
	intSetting("harness.max_active_seconds", "seconds", 1200, 1, 7*86400, ApplySafeBoundary, PrivacyPublic,
		"Active wall time per task, excluding waits for the user."),
	intSetting("harness.shell_timeout_seconds", "seconds", 120, 1, 86400, ApplySafeBoundary, PrivacyPublic,
		"Deadline of one command, capped by the remaining active time."),
	intSetting("harness.provider_retries", "retries", 2, 0, 10, ApplyFuture, PrivacyPublic,
		"Retries of safely classified transient provider failures; never for 429, quota or capacity rejections."),
	intSetting("harness.max_tool_calls", "calls", 100, 1, 100000, ApplySafeBoundary, PrivacyPublic,
		"Most tool calls per task."),
	intSetting("harness.max_total_tokens", "tokens", 200000, 1000, 1_000_000_000, ApplySafeBoundary, PrivacyPublic,
		"Total input plus output tokens per task, reserved before each request and reconciled after."),
	intSetting("harness.verification_attempts", "runs", 3, 1, 10, ApplySafeBoundary, PrivacyPublic,
		"Runs of the verification command per attempt: after a failed run the model is told the command, exit code and output and continues within the task's budgets; the last failure fails the task."),
	stringSetting("harness.verify_command", "", ApplyFuture, PrivacySecurity,
		"Command whose success is the task's verification contract (run through policy like any command). Empty: the task names it."),

	{Key: "tools.backend", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: `The tool backend command, as an argv array run without a shell, e.g. ["ssh", "-T", "host", "fluzo-tool", "serve", "--root", "/srv/repo"]; it must speak the fluzo-tool protocol on its stdin and stdout. Empty (the default) starts the local fluzo-tool serve in the workspace. Files, commands, git and every workspace read of the runtime then happen there; the store, journal, policy, provider and consent stay local.`},
	enumSetting("tools.shell.stdin", "closed", []string{"closed"}, ApplyFuture, PrivacyPublic,
		"Standard input of child processes; always closed."),
	intSetting("tools.shell.termination_grace_seconds", "seconds", 5, 0, 300, ApplyFuture, PrivacyPublic,
		"Time between SIGTERM and SIGKILL of a command's process group."),
	{Key: "tools.shell.inherit_env", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "Reviewed parent environment variables passed to commands. A model's api_key_env and credential-looking names (*_KEY, *_TOKEN, *_SECRET, *PASSWORD*, AWS_*, ...) are refused. Changes need consent."},
	{Key: "tools.shell.env", Kind: KindStringMap, Default: map[string]string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "Non-secret literal environment variables set for commands; credential-looking and code-injecting names are refused. Changes need consent."},

	enumSetting("tools.sandbox.mode", "landlock", []string{"landlock", "off"}, ApplyFuture, PrivacySecurity,
		"OS sandbox of commands (exec and shell), enforced inside fluzo-tool: landlock confines writes to the workspace (minus .git, .fluzo, .fluzodrive), its private TMPDIR and the build caches, hides the home directory's credential files and denies TCP; where the kernel has no Landlock, commands fail with sandbox_unavailable. off runs commands unconfined, and results say so."),
	enumSetting("tools.sandbox.network", "deny", []string{"deny", "allow"}, ApplyFuture, PrivacySecurity,
		"TCP connect and bind for sandboxed commands (Landlock ABI 4 or newer). UDP, such as DNS, is not restricted."),
	{Key: "tools.sandbox.writable", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "Extra absolute paths sandboxed commands may write beneath (e.g. a cache the defaults miss). Never list the home directory: it holds credential files."},
	{Key: "tools.sandbox.readable", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "Extra absolute paths sandboxed commands may read and execute beneath (e.g. a toolchain outside PATH)."},

	enumSetting("policy.shell", "ask", askModes, ApplyFuture, PrivacySecurity,
		"Commands (exec and shell). An explicit deny wins over grants and YOLO."),
	enumSetting("policy.tool_network", "deny", askModes, ApplyFuture, PrivacySecurity,
		"Network access by Fluzo-mediated tools. Not a kernel firewall for approved programs."),
	enumSetting("policy.git_commit", "ask", askModes, ApplyFuture, PrivacySecurity,
		"Creating git commits."),
	enumSetting("policy.git_push", "ask", askModes, ApplyFuture, PrivacySecurity,
		"Pushing to git remotes."),
	enumSetting("policy.destructive_commands", "deny", []string{"ask", "deny"}, ApplyFuture, PrivacySecurity,
		"Commands that discard work (rm -r, git reset --hard, git clean -f, git push --force, ...)."),
	enumSetting("policy.mcp", "ask", []string{"ask", "deny"}, ApplyFuture, PrivacySecurity,
		"Calls of MCP server tools: ask (approve each, or grant mcp:SERVER/TOOL) or deny all. Server hints never authorize."),
	enumSetting("policy.filesystem", "workspace", []string{"workspace"}, ApplyFuture, PrivacySecurity,
		"File tools reach only the workspace root; .git, .fluzo and .fluzodrive are protected."),
	enumSetting("policy.credentials", "deny", []string{"deny"}, ApplyFuture, PrivacySecurity,
		"Credential access by tools."),
	{Key: "policy.grants", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "Standing grants, e.g. [\"exec:cargo test\"]; the grammar is in fluzo-admit(1). They need consent (fluzo-admit consent) and never beat a deny."},

	enumSetting("mcp.servers.*.transport", MCPStdio, []string{MCPStdio, MCPHTTP}, ApplyFuture, PrivacyInfrastructure,
		"How Fluzo reaches this MCP server: stdio (a child process run under the same contract as commands) or http (streamable HTTP)."),
	boolSetting("mcp.servers.*.enabled", true, ApplyFuture, PrivacySecurity,
		"Start this server and offer its tools to the model. Every call still goes through policy (default ask; grants are mcp:NAME/TOOL)."),
	{Key: "mcp.servers.*.command", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "stdio: the server's argv, e.g. [\"node\", \"server.js\", \"stdio\"]; the program is found on PATH, never through a shell."},
	stringSetting("mcp.servers.*.cwd", ".", ApplyFuture, PrivacyInfrastructure,
		"stdio: working directory of the server, relative to the workspace root."),
	{Key: "mcp.servers.*.inherit_env", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "stdio: parent environment variables passed to the server (names only; secret-looking names are refused)."},
	{Key: "mcp.servers.*.env", Kind: KindStringMap, Default: map[string]string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "stdio: non-secret literal environment variables for the server."},
	{Key: "mcp.servers.*.secret_env", Kind: KindStringMap, Default: map[string]string{}, Apply: ApplyFuture, Privacy: PrivacyReference,
		Description: "stdio: secrets by reference: server variable name = name of the parent environment variable holding the value (never the value)."},
	stringSetting("mcp.servers.*.url", "", ApplyFuture, PrivacySecurity,
		"http: the streamable HTTP endpoint; https, or http to a loopback host only. Redirects are never followed."),
	{Key: "mcp.servers.*.header_env", Kind: KindStringMap, Default: map[string]string{}, Apply: ApplyFuture, Privacy: PrivacyReference,
		Description: "http: request headers by reference: header name = name of the environment variable holding its value, e.g. {Authorization = \"MCP_AUTH\"}."},
	{Key: "mcp.servers.*.tools", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "Allow-list of the server's tool names offered to the model; empty offers every tool. Listing is not approval."},
	{Key: "mcp.servers.*.deny_tools", Kind: KindStrings, Default: []string{}, Apply: ApplyFuture, Privacy: PrivacySecurity,
		Description: "Tools of this server that are always denied, whatever grants or YOLO say (an explicit deny wins)."},
	intSetting("mcp.servers.*.startup_timeout_seconds", "seconds", 30, 1, 600, ApplyFuture, PrivacyPublic,
		"Deadline for starting the server, the protocol handshake and the first tools/list."),
	intSetting("mcp.servers.*.call_timeout_seconds", "seconds", 120, 1, 86400, ApplyFuture, PrivacyPublic,
		"Deadline of one tools/call."),
	intSetting("mcp.servers.*.max_restarts", "restarts", 1, 0, 10, ApplyFuture, PrivacyPublic,
		"Restarts of a crashed server per task before its calls fail with mcp_server_lost."),

	floatSetting("context.compaction_threshold", "ratio", 0.8, 0.1, 0.95, ApplyFuture, PrivacyPublic,
		"Share of available input capacity that triggers compaction before a request."),
	intSetting("context.compaction_max_output_tokens", "tokens", 2048, 128, 1_000_000, ApplyFuture, PrivacyPublic,
		"Output tokens reserved for a compaction summary."),
	intSetting("context.overhead_tokens", "tokens", 512, 0, 100000, ApplyFuture, PrivacyPublic,
		"Protocol and safety overhead subtracted from available input capacity."),
	intSetting("context.tool_context_max_bytes", "bytes", 64*kib, 1*kib, 16*mib, ApplyFuture, PrivacyPublic,
		"Largest tool result placed in model context; the rest stays in an artifact with a truncation marker."),
	intSetting("context.tool_capture_max_bytes", "bytes", 2*mib, 4*kib, 1*gib, ApplyFuture, PrivacyPublic,
		"Largest captured output per command; pipes keep draining past it."),

	boolSetting("storage.auto_expire", false, ApplyFuture, PrivacyPublic,
		"Automatic age-based expiry of history. Not supported: history is kept until explicitly purged."),
	intSetting("storage.session_max_bytes", "bytes", 10*gib, 1*mib, 1<<50, ApplyFuture, PrivacyPublic,
		"Largest stored size of one session before new writes are refused."),
	intSetting("storage.diagnostic_max_bytes", "bytes", 2*gib, 1*mib, 1<<50, ApplyFuture, PrivacyPublic,
		"Largest size of the local diagnostic (telemetry) archive."),
	intSetting("storage.min_free_bytes", "bytes", 1*gib, 0, 1<<50, ApplyFuture, PrivacyPublic,
		"Free disk space kept; writes that would go below it are refused."),

	boolSetting("telemetry.export_enabled", false, ApplyRestart, PrivacySecurity,
		"Export traces, metrics and logs over OTLP. Local archiving does not depend on it."),
	enumSetting("telemetry.otlp_protocol", "http/protobuf", []string{"http/protobuf"}, ApplyRestart, PrivacyPublic,
		"OTLP transport."),
	stringSetting("telemetry.otlp_endpoint", "http://127.0.0.1:4318", ApplyRestart, PrivacySecurity,
		"OTLP collector base URL. A new or changed destination needs consent (fluzo-admit consent)."),
	boolSetting("telemetry.capture_content", false, ApplyRestart, PrivacySecurity,
		"Include prompts, outputs and tool content in telemetry. Off: only metadata. Turning it on needs consent."),
	boolSetting("telemetry.archive_enabled", true, ApplyRestart, PrivacyPublic,
		"Keep the local JSONL diagnostic archive under .fluzodrive/telemetry."),
	intSetting("telemetry.archive_file_max_bytes", "bytes", 64*mib, 64*kib, 4*gib, ApplyRestart, PrivacyPublic,
		"Size at which an archive file is rotated."),

	enumSetting("tui.theme", "default", []string{"default", "high_contrast"}, ApplyLive, PrivacyPublic,
		"Colour theme."),
	intSetting("tui.animation_fps", "fps", 60, 0, 60, ApplyLive, PrivacyPublic,
		"Animation frame-rate ceiling; 30 and 15 cost less, 0 disables motion."),
	boolSetting("tui.reduced_motion", false, ApplyLive, PrivacyPublic,
		"Disable animated motion regardless of animation_fps."),
	boolSetting("tui.dev_menu", false, ApplyLive, PrivacyPublic,
		"Show the developer menu. Confers no runtime privileges."),
	boolSetting("tui.notifications.desktop_enabled", false, ApplyLive, PrivacyPublic,
		"Also send desktop notifications (task completed, blocked on input, failed) while the terminal is known to be unfocused."),
	intSetting("tui.notifications.duration_seconds", "seconds", 5, 1, 30, ApplyLive, PrivacyPublic,
		"How long an in-app notice stays, counted from its receipt (shown or still pending)."),
	intSetting("tui.notifications.max_visible", "notices", 3, 1, 5, ApplyLive, PrivacyPublic,
		"Most notices stacked at once."),
	boolSetting("tui.flags.render_diagnostics", false, ApplyLive, PrivacyPublic,
		"Overlay render timing diagnostics."),
}

var schemaCollections = []Collection{
	{Name: "models", DefaultEntries: []DefaultEntry{
		{ID: "coder", Fields: map[string]any{
			"provider": ProviderOpenAI, "base_url": "http://127.0.0.1:8080/v1", "model": "flash-halogen",
			"capacity_id": "local-flash",
		}},
		{ID: "laya", Fields: map[string]any{
			"provider": ProviderLaya, "endpoint": "http://127.0.0.1:8080/upstream/laya/v1/systemone",
			"capacity_id": "local-laya",
		}},
	}},
	{Name: "capacity_pools", DefaultEntries: []DefaultEntry{{ID: "local_server", Fields: map[string]any{}}}},
	// No MCP server is configured unless the user declares one.
	{Name: "mcp.servers"},
}
