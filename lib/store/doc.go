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
//	tx.AttachArtifact(sessionID, ref)                    → links a stored artifact to a session
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
// memory.
//
// # Recovery, artifacts, purge, quotas
//
//	rep, err := s.Recover(ctx)  // owner only: running → interrupted, in-flight ops → unknown, task → blocked
//	ref, err := s.PutArtifact(ctx, r, mediaType) // temp → fsync → rename → fsync dir; then tx.AttachArtifact
//	plan, err := s.PlanPurge(ctx, store.PurgeSelect{...}); res, err := s.Purge(ctx, plan)
//	st, err := s.Admit(ctx, store.DefaultQuota) // storage_error with reason when new mutating work must stop
//	active, err := store.OwnerActive(ws) // non-blocking flock probe of .fluzodrive/owner.lock
package store
