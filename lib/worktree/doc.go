// Package worktree is the isolated_worktree task workspace strategy (PRD
// §21.1): a task runs in its own git worktree under
// .fluzodrive/worktrees/TASK, on a new branch fluzo/TASK made from HEAD,
// and its change reaches the user's working tree only when the user
// accepts it, as uncommitted changes. Nothing here commits, stages in the
// main tree, stashes or switches branches; every git run goes through
// lib/tools/gitx, so no repository-configured helper or hook runs.
//
// A worktree's life is recorded as worktree.* events on the task that
// created it (Lookup reads them back); a follow-up repair task carries
// worktree.attached naming that task.
package worktree
