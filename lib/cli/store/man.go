package storecli

import "github.com/josecorral/fluzo/lib/cli/clidoc"

// ManSections adds fluzo-store's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Files", Body: `<workspace>/.fluzodrive/            private state, mode 0700; untracked and git-excluded
<workspace>/.fluzodrive/state.sqlite3   SQLite store (WAL, synchronous=FULL), mode 0600
<workspace>/.fluzodrive/artifacts/  content-addressed payloads (sha256), mode 0600
<workspace>/.fluzodrive/backups/    VACUUM INTO copies made before schema migrations
<workspace>/.fluzodrive/owner.lock  flock held by the runtime owner (fluzo-agent)
$(git rev-parse --git-path info/exclude)   where --git-exclude writes /.fluzodrive/`},
		{Title: "Environment", Body: `FLUZO_WORKSPACE   default for --workspace`},
		{Title: "Examples", Body: `Create the store, excluding .fluzodrive from git locally:

  fluzo-store init --git-exclude

Stream task creations with jq (or gojq), or follow a session live:

  fluzo-store events | jq 'select(.type == "task.created")'
  fluzo-store events --session ses_... --follow

Preview, then confirm, a purge:

  fluzo-store history purge --session ses_... --dry-run
  fluzo-store history purge --session ses_... --yes

Build the large-history fixture used by benchmarks:

  fluzo-store fixture --seed 1 --messages 10000 --events 100000 --artifact-bytes 256MiB`},
		{Title: "Event envelope", Body: `Each line of "events" is one JSON object: v (1), id, seq (per session,
gap-free, in commit order), ts (RFC 3339 UTC), type (dotted, e.g.
task.created, operation.intent, operation.result), session, task, attempt,
operation, corr, cause, trace, span, data. Readers must ignore unknown
fields.`},
		{Title: "Interrupted tasks", Body: `The stored states are history written by the last owner; tasks and show
read them against the owner lock and never rewrite them. Without an owner, a
running task is shown interrupted (with the command that continues it:
fluzo-agent resume TASK), its running attempt interrupted and its dispatched
operations unknown, as the next owner's recovery will record them. When the
lock cannot be probed (e.g. it is a symbolic link) a running task is shown
unknown. With --json, "state" is the state shown, "stored_state" the stored
one when they differ, and "resume" the resume command.`},
		{Title: "Active sessions", Body: `A session counts as active when another process holds the flock on
.fluzodrive/owner.lock (probed without blocking and released at once; a PID
is never trusted) and the session has unfinished work or no task yet. Purge
refuses active sessions with exit 11 after purging the others.`},
	}
}
