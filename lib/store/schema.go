package store

// SchemaVersion is the schema this build writes (PRAGMA user_version).
const SchemaVersion = 1

// migrations[i] upgrades a store from user_version i to i+1. A migration
// is applied in one transaction together with its user_version bump.
var migrations = []string{schemaV1}

// schemaV1 holds every table of PRD §22 / issue 2 item 3. Timestamps are
// RFC 3339 UTC text with nanoseconds, so they sort as strings. Session
// children cascade on delete so a purge removes a session's records in one
// statement; artifacts are shared by reference and removed separately.
const schemaV1 = `
CREATE TABLE projects (
	id         TEXT PRIMARY KEY,
	root       TEXT NOT NULL,
	dev        INTEGER NOT NULL,
	inode      INTEGER NOT NULL,
	created_at TEXT NOT NULL
) STRICT;

CREATE TABLE sessions (
	id         TEXT PRIMARY KEY,
	project_id TEXT NOT NULL REFERENCES projects(id),
	title      TEXT NOT NULL DEFAULT '',
	synthetic  INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE tasks (
	id         TEXT PRIMARY KEY,
	session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	request    TEXT NOT NULL,
	state      TEXT NOT NULL,
	reason     TEXT NOT NULL DEFAULT '',
	verify     TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX tasks_session ON tasks(session_id, created_at);

CREATE TABLE attempts (
	id          TEXT PRIMARY KEY,
	task_id     TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
	number      INTEGER NOT NULL,
	state       TEXT NOT NULL,
	reason      TEXT NOT NULL DEFAULT '',
	trace_id    TEXT NOT NULL DEFAULT '',
	previous_id TEXT REFERENCES attempts(id) ON DELETE SET NULL,
	started_at  TEXT NOT NULL,
	ended_at    TEXT,
	UNIQUE (task_id, number)
) STRICT;
CREATE INDEX attempts_state ON attempts(state);

CREATE TABLE operations (
	id          TEXT PRIMARY KEY,
	attempt_id  TEXT NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
	tool        TEXT NOT NULL,
	call_id     TEXT NOT NULL DEFAULT '',
	args        BLOB,
	state       TEXT NOT NULL,
	decision    TEXT NOT NULL DEFAULT '',
	rule        TEXT NOT NULL DEFAULT '',
	grant_id    TEXT NOT NULL DEFAULT '',
	result      BLOB,
	artifact    TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL,
	updated_at  TEXT NOT NULL
) STRICT;
CREATE INDEX operations_attempt ON operations(attempt_id, created_at);
CREATE INDEX operations_state ON operations(state);

CREATE TABLE provider_requests (
	id            TEXT PRIMARY KEY,
	attempt_id    TEXT NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
	purpose       TEXT NOT NULL,
	model         TEXT NOT NULL,
	state         TEXT NOT NULL,
	input_tokens  INTEGER,
	output_tokens INTEGER,
	usage_source  TEXT NOT NULL DEFAULT '',
	created_at    TEXT NOT NULL,
	updated_at    TEXT NOT NULL
) STRICT;
CREATE INDEX provider_requests_attempt ON provider_requests(attempt_id, created_at);

CREATE TABLE permission_grants (
	id         TEXT PRIMARY KEY,
	task_id    TEXT REFERENCES tasks(id) ON DELETE CASCADE,
	scope      TEXT NOT NULL,
	spec       TEXT NOT NULL,
	state      TEXT NOT NULL,
	source     TEXT NOT NULL,
	created_at TEXT NOT NULL,
	ended_at   TEXT
) STRICT;
CREATE INDEX permission_grants_task ON permission_grants(task_id);

CREATE TABLE messages (
	id         TEXT PRIMARY KEY,
	session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	task_id    TEXT NOT NULL DEFAULT '',
	attempt_id TEXT NOT NULL DEFAULT '',
	role       TEXT NOT NULL,
	content    TEXT NOT NULL DEFAULT '',
	artifact   TEXT NOT NULL DEFAULT '',
	capture    TEXT NOT NULL DEFAULT 'full',
	created_at TEXT NOT NULL
) STRICT;
CREATE INDEX messages_session ON messages(session_id, created_at);

CREATE TABLE config_snapshots (
	id          TEXT PRIMARY KEY,
	session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	attempt_id  TEXT NOT NULL DEFAULT '',
	fingerprint TEXT NOT NULL,
	body        TEXT NOT NULL,
	created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX config_snapshots_session ON config_snapshots(session_id);

CREATE TABLE artifacts (
	sha256     TEXT PRIMARY KEY,
	size       INTEGER NOT NULL,
	media_type TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL
) STRICT;

CREATE TABLE artifact_refs (
	session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	sha256     TEXT NOT NULL REFERENCES artifacts(sha256),
	created_at TEXT NOT NULL,
	PRIMARY KEY (session_id, sha256)
) STRICT;
CREATE INDEX artifact_refs_sha ON artifact_refs(sha256);

-- Artifacts whose rows were deleted but whose files may still exist; a
-- purge removes the files after its commit and retries leftovers, which
-- keeps purge idempotent when it is interrupted.
CREATE TABLE artifact_tombstones (
	sha256 TEXT PRIMARY KEY
) STRICT;

CREATE TABLE observations (
	id         TEXT PRIMARY KEY,
	session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	task_id    TEXT NOT NULL DEFAULT '',
	attempt_id TEXT NOT NULL DEFAULT '',
	kind       TEXT NOT NULL,
	data       TEXT NOT NULL,
	created_at TEXT NOT NULL
) STRICT;
CREATE INDEX observations_session ON observations(session_id, created_at);

CREATE TABLE compactions (
	id            TEXT PRIMARY KEY,
	session_id    TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	task_id       TEXT NOT NULL DEFAULT '',
	attempt_id    TEXT NOT NULL DEFAULT '',
	before_tokens INTEGER,
	after_tokens  INTEGER,
	summary       TEXT NOT NULL DEFAULT '',
	artifact      TEXT NOT NULL DEFAULT '',
	created_at    TEXT NOT NULL
) STRICT;
CREATE INDEX compactions_session ON compactions(session_id, created_at);

-- pos orders every event globally (commit order); seq is gap-free per
-- session. Sessionless events use session_id NULL and their own sequence.
CREATE TABLE events (
	pos          INTEGER PRIMARY KEY AUTOINCREMENT,
	id           TEXT NOT NULL UNIQUE,
	session_id   TEXT REFERENCES sessions(id) ON DELETE CASCADE,
	seq          INTEGER NOT NULL,
	ts           TEXT NOT NULL,
	type         TEXT NOT NULL,
	task_id      TEXT NOT NULL DEFAULT '',
	attempt_id   TEXT NOT NULL DEFAULT '',
	operation_id TEXT NOT NULL DEFAULT '',
	corr         TEXT NOT NULL DEFAULT '',
	cause        TEXT NOT NULL DEFAULT '',
	trace        TEXT NOT NULL DEFAULT '',
	span         TEXT NOT NULL DEFAULT '',
	data         BLOB
) STRICT;
CREATE UNIQUE INDEX events_session_seq ON events(session_id, seq);
CREATE INDEX events_task ON events(task_id, pos);
CREATE INDEX events_type ON events(type, pos);
`
