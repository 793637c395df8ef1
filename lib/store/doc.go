// Package store is Fluzo's durable store: one SQLite database per
// workspace at <workspace>/.fluzodrive/state.sqlite3, plus content-addressed
// artifacts beside it. Every other package goes through this API; nothing
// else opens the database.
//
// # Workspace and data root
//
//	ws, err := store.ResolveWorkspace(ctx, dir)   // git top level + (device, inode)
//	ex, err := store.CheckExclusion(ctx, ws)      // git ls-files / check-ignore, helpers disabled
//	path, err := store.AddGitExclude(ctx, ws)     // explicit opt-in: /.fluzodrive/ → $(git rev-parse --git-path info/exclude)
//
// .fluzodrive/ is created 0700 (files 0600) only after git confirms it is
// untracked and ignored; a symlinked data root is refused; .gitignore is
// never touched.
//
// # Opening
//
//	s, err := store.Open(ctx, ws)          // writer: creates, migrates, verifies pragmas
//	r, err := store.OpenReadOnly(ctx, ws)  // reader: never creates or migrates; works while a writer runs (WAL)
//
// Writers get WAL, synchronous=FULL, foreign_keys=ON and a busy timeout,
// read back on every connection; any failure is storage_error (exit 13).
// The schema is versioned with PRAGMA user_version; an existing store is
// copied with VACUUM INTO to .fluzodrive/backups/ before a migration, and a
// newer schema is refused.
//
// # Writing
//
// All writes happen in s.Write(ctx, func(tx *store.Tx) error), a BEGIN
// IMMEDIATE transaction. Each record operation appends its event in the
// same transaction, so state and audit trail commit together:
//
//	tx.CreateSession(&core.Session{...})                 → session.created
//	tx.CreateTask(&core.Task{SessionID: ...})            → task.created
//	tx.SetTaskState(id, core.TaskRunning, "")            → task.state (core.TaskState.Transition)
//	tx.StartAttempt(&core.Attempt{TaskID: ...})          → attempt.started
//	tx.EndAttempt(id, core.AttemptCompleted, reason)     → attempt.ended
//	tx.CreateOperation(&core.Operation{AttemptID: ...})  → operation.requested
//	tx.SetOperationState(id, to, store.OperationUpdate{}) → operation.decision/intent/dispatched/result/unknown
//	tx.CreateProviderRequest(&core.ProviderRequest{...}) → provider.request
//	tx.SetProviderRequestState(id, to, &store.Usage{})   → provider.request/provider.response
//	tx.IssueGrant(&core.Grant{...}), tx.SetGrantState(id, to, opID) → grant.*
//	tx.AddMessage, tx.SaveConfigSnapshot, tx.AddObservation, tx.AddCompaction
//	tx.AttachArtifact(sessionID, ref)                    → links a stored artifact to a session (no event)
//	tx.Append(core.Event{...}), tx.AppendBatch(evs)      → any other event
//
// tx.Meta sets corr/cause/trace/span for every event the transaction
// appends. s.AppendBatch(ctx, evs) commits many events at once (streaming
// checkpoints). Events get an ID, a per-session gap-free seq and ts.
//
// # Reading
//
// Store and Tx share Queries: GetSession/ListSessions, GetTask/ListTasks,
// GetAttempt/ListAttempts, GetOperation/ListOperations,
// GetProviderRequest/ListProviderRequests, GetGrant/ListGrants,
// ListMessages (paged), ListConfigSnapshots, ListObservations,
// ListCompactions, and the event cursor:
//
//	page, err := s.Events(ctx, store.EventQuery{Session: id, Type: "task.*", AfterPos: cur, Limit: 500})
//	next, err := s.EachEvent(ctx, q, func(ev core.Event) error { ... }) // one page in memory at a time
//
// A page never exceeds MaxPage events, so any history streams in bounded
// memory. s.EventLines(ctx, q) returns the same page already encoded as
// JSON envelopes (byte-identical to json.Marshal(core.Event)) for
// exporters.
// ListSessionSummaries adds task/event/artifact counts to sessions.
//
// # Recovery
//
//	rep, err := s.Recover(ctx) // owner only, after taking ownership
//
// running attempts → interrupted, intent_committed/dispatched operations →
// unknown, their tasks → blocked (reason "interrupted"), in-flight provider
// requests → uncertain (never sent: cancelled_before_dispatch), unused
// once grants → expired; each change with its event, in one transaction.
//
// # Artifacts
//
//	ref, err := s.PutArtifact(ctx, r, "text/plain") // temp → fsync → rename → fsync dir
//	err = s.Write(ctx, func(tx *store.Tx) error { return tx.AttachArtifact(sessionID, ref) })
//	f, err := s.OpenArtifact(ref.SHA256); refs, err := s.ListArtifacts(ctx, sessionID)
//
// Content lives at .fluzodrive/artifacts/<2 hex>/<sha256>, stored once.
//
// # Purge, quotas, checks
//
//	plan, err := s.PlanPurge(ctx, store.PurgeSelect{Session: id}) // dry run; works read-only
//	res, err := s.Purge(ctx, store.PurgeSelect{All: true})        // re-plans inside the write lock
//	st, err := s.Admit(ctx, store.DefaultQuota) // storage_error, Details["reason"] = session_quota_exceeded | low_disk_space
//	active, err := store.OwnerActive(ws)       // non-blocking flock probe of .fluzodrive/owner.lock
//	findings := store.Check(ctx, ws)           // read-only integrity/permission/exclusion findings
//	stats, err := s.Stats(ctx, store.DefaultQuota)
//	res, err := s.Fixture(ctx, store.FixtureSpec{Seed: 1, Events: 100000}) // synthetic history
//
// Purge refuses sessions with unfinished work (or no task yet) while the
// owner lock is held by another process, keeps artifacts still referenced
// by a surviving session, and removes files only under the write lock
// after the records commit (tombstones make an interrupted purge finish on
// the next run). Quotas never evict anything.
//
// # The eval label log
//
//	err := store.AppendEvalLabel(ws, record)  // one JSON line, under flock, fsynced
//	lines, err := store.ReadEvalLabels(ws)    // complete lines, oldest first
//
// .fluzodrive/eval/labels.jsonl holds the human labels of Laya observations
// (lib/observe gives them meaning). The store owns its path and its I/O so
// that it follows the data root's rules: the directory and the file are
// opened relative to the data root with O_NOFOLLOW (a link at either level
// is a storage_error), created 0700/0600. Check reports it (links, modes,
// labels of observations no longer stored), Stats counts its bytes as used
// storage, and Purge removes the labels of observations that are gone,
// rewriting the log by rename under its lock (an appender that raced the
// rewrite reopens the new file).
//
// # Concurrency
//
// One process may hold several Stores; SQLite serialises writers
// (BEGIN IMMEDIATE, busy timeout 5 s) and readers never block them (WAL).
// Inside Write, use the Tx (it embeds Queries) rather than the Store for
// reads, or the read will not see the transaction's own changes. Write
// transactions do not nest: calling s.Write inside fn deadlocks.
package store
