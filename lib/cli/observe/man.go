package observe

import "github.com/josecorral/fluzo/lib/cli/clidoc"

// ManSections adds fluzo-observe's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Files", Body: `.fluzodrive/telemetry/<signal>-<start>-<pid>-<seq>.jsonl
  The local diagnostic archive: versioned JSON Lines records ("v", "type":
  span, metric or log, "resource", trace and span IDs). Segments rotate by
  size and are never deleted automatically.

.fluzodrive/telemetry/health.json
  The health snapshot the last telemetry writer wrote at shutdown.

.fluzodrive/state.sqlite3
  The durable store that replay and diag read, read-only.`},
		{Title: "Examples", Body: `Show what happened in a task, then diagnose it:

  fluzo-observe replay tsk_01J...
  fluzo-observe diag tsk_01J...
  fluzo replay tsk_01J... --json | jq -r 'select(.actor == "policy") | .outcome'

Check telemetry health, as JSON for scripts:

  fluzo-observe health --json

See what a local purge would remove, then remove it:

  fluzo-observe purge --local --dry-run
  fluzo-observe purge --local --yes

The front command reaches the same commands:

  fluzo telemetry purge --local --dry-run`},
		{Title: "Exit status", Body: `0 success; 1 failure (for example a task that does not exist); 2 usage error;
3 not inside a git working tree (replay, diag) or an invalid .fluzo (health,
with the same diagnostics as fluzo-admit config validate); 10 purge without
--dry-run or --yes; 11 purge while a process is writing telemetry; 13 the store or the
archive is unavailable.`},
		{Title: "Privacy", Body: `By default telemetry holds operation metadata only: no prompts, source code,
tool arguments or results, diffs, shell output or model reasoning, and never
credentials. OTLP export is opt-in ([telemetry] export_enabled and
otlp_endpoint in .fluzo); OTEL_* environment variables never change its
destination or headers. purge --local never claims to erase exported data.`},
	}
}
