package core

import (
	"encoding/json"
	"strings"
	"time"
)

// WireVersion is the "v" of every record Fluzo writes.
const WireVersion = 1

// Event is the durable event envelope (DESIGN §4). Seq is gap-free per
// session and assigned by the store in the transaction that records the
// state change, so a reader may rely on order and detect gaps.
type Event struct {
	V         int             `json:"v"`
	ID        string          `json:"id"`
	Seq       int64           `json:"seq"`
	TS        time.Time       `json:"ts"`
	Type      string          `json:"type"`
	Session   string          `json:"session,omitempty"`
	Task      string          `json:"task,omitempty"`
	Attempt   string          `json:"attempt,omitempty"`
	Operation string          `json:"operation,omitempty"`
	Corr      string          `json:"corr,omitempty"`
	Cause     string          `json:"cause,omitempty"`
	Trace     string          `json:"trace,omitempty"`
	Span      string          `json:"span,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// Durable event types: every type a binary commits to the store is named
// here, once, so that readers (replay, diag, the port, the TUI) and
// writers cannot drift apart. A test rejects an event type spelled as a
// literal or declared outside this list.
const (
	EvSessionCreated      = "session.created"
	EvTaskCreated         = "task.created"
	EvTaskState           = "task.state"
	EvAttemptStarted      = "attempt.started"
	EvAttemptEnded        = "attempt.ended"
	EvOperationRequested  = "operation.requested"
	EvOperationDecision   = "operation.decision"
	EvOperationIntent     = "operation.intent"
	EvOperationDispatched = "operation.dispatched"
	EvOperationResult     = "operation.result"
	EvOperationUnknown    = "operation.unknown"
	EvPermissionRequested = "permission.requested"
	EvPermissionResolved  = "permission.resolved"
	EvGrantIssued         = "grant.issued"
	EvGrantConsumed       = "grant.consumed"
	EvGrantExpired        = "grant.expired"
	EvGrantRevoked        = "grant.revoked"
	EvProviderRequest     = "provider.request"
	EvProviderResponse    = "provider.response"
	EvMessage             = "message"
	EvVerification        = "verification.result"
	EvCompaction          = "compaction"
	EvBudget              = "budget"
	EvObservation         = "laya.observation"
	EvYolo                = "yolo"
	EvIntervention        = "intervention"
	// EvInterventionEdited records that the user replaced the text of a
	// queued intervention before the agent received it.
	EvInterventionEdited = "intervention.edited"
	// EvInterventionWithdrawn records that the user took a queued
	// intervention back before the agent received it.
	EvInterventionWithdrawn = "intervention.withdrawn"
	EvRecovery              = "recovery"
	// EvConfigSnapshot records the effective configuration of an attempt.
	EvConfigSnapshot = "config.snapshot"
	// EvPromptReceipt records the initial context of an attempt.
	EvPromptReceipt = "context.receipt"
	// EvWorkspaceState records the branch and revision an attempt started
	// at; resume checks them before continuing.
	EvWorkspaceState = "workspace.state"
	// EvAttemptResumed records what an earlier attempt left when a task
	// resumes (its turns, tokens and unknown operations).
	EvAttemptResumed = "attempt.resumed"
	// EvResumeRevalidation lists, when a task resumes, the files an earlier
	// attempt viewed or wrote whose content changed since: the new attempt
	// must view them again before editing (the tools' expect_version check
	// refuses the old versions).
	EvResumeRevalidation = "resume.revalidation"
	// EvCommandResult records a test or build command's exit and failure
	// fingerprint, the evidence loop detection and verification read.
	EvCommandResult = "command.result"
	// EvLoopDetected records a repeated edit-test cycle with the same
	// failure.
	EvLoopDetected = "loop.detected"
	// EvOperationStopping records processes that survived a graceful stop.
	EvOperationStopping = "operation.stopping"
	// EvVerificationWaived records that the user explicitly waived the
	// verification contract for a task (--no-verify, or no_verify on the
	// port): the only way a task without a verification command completes.
	EvVerificationWaived = "verification.waived"
	// EvDiffSummary records a task's diff summary (pre-existing versus task
	// changes, as in the result's "diff") when the task ends, so the port's
	// diff query answers for any finished task, whichever process ran it.
	EvDiffSummary = "diff.summary"
	// EvToolBackendLost records that the task's tool backend (the
	// fluzo-tool serve child) vanished; the call in flight, if any, has an
	// unknown outcome.
	EvToolBackendLost = "tool_backend.lost"
	// EvToolBackendRestarted records the one restart of a lost tool
	// backend an attempt allows.
	EvToolBackendRestarted = "tool_backend.restarted"
	// EvToolBackendConnected records the identity the tool backend gave
	// in its handshake when an attempt started: host, root, repository
	// and protocol (a remote backend's, not the owner's directory).
	EvToolBackendConnected = "tool_backend.connected"
	// EvToolProcessesEnded records processes of a tool tree that outlived
	// their fluzo-tool serve (it died, or they escaped its clean-up) and
	// that the owner ended before going on or releasing the workspace
	// lock; "unconfirmed" names any still alive when the bounded wait ran
	// out.
	EvToolProcessesEnded = "tool_backend.processes_ended"
	// EvMCPServerStarted records an MCP server that completed its
	// handshake: the negotiated protocol version and the tools offered.
	EvMCPServerStarted = "mcp.server.started"
	// EvMCPServerFailed records an MCP server that could not be started
	// (its tools are not offered).
	EvMCPServerFailed = "mcp.server.failed"
	// EvMCPServerLost records an MCP server whose connection or process
	// ended; a call in flight has an unknown outcome.
	EvMCPServerLost = "mcp.server.lost"
	// EvMCPServerRestarted records a bounded restart of a lost MCP server.
	EvMCPServerRestarted = "mcp.server.restarted"
	// EvMCPToolsChanged records a server's tool list after it announced a
	// change (notifications/tools/list_changed).
	EvMCPToolsChanged = "mcp.tools.changed"
	// EvConsentGranted records the user's consent to a configuration's
	// destinations (PRD §26): the fingerprint, the redacted destinations,
	// when and how it was given (the fluzo-admit prompt or --yes, the
	// --consent flag, the demo's own). Workspace-wide: no session.
	EvConsentGranted = "consent.granted"
	// EvConsentRevoked records that fluzo-admit consent revoke removed
	// every consent of the workspace.
	EvConsentRevoked = "consent.revoked"
	// EvWorktreeCreated records that a task runs in its own git worktree
	// (strategy isolated_worktree): its path relative to the workspace,
	// branch, base commit and whether the main tree had uncommitted
	// changes (they are not in the worktree). It commits with the task.
	EvWorktreeCreated = "worktree.created"
	// EvWorktreeAttached records that a follow-up (repair) task runs in
	// the worktree of an earlier task, named by worktree_task.
	EvWorktreeAttached = "worktree.attached"
	// EvWorktreeRepair, on the worktree's task, names the follow-up task
	// that continues it with the reviewer's feedback.
	EvWorktreeRepair = "worktree.repair"
	// EvWorktreeAccepted records that the worktree's change was applied
	// to the main working tree as uncommitted changes: the files and the
	// diff id.
	EvWorktreeAccepted = "worktree.accepted"
	// EvWorktreeRejected records that the user rejected the change: the
	// worktree and its branch were removed.
	EvWorktreeRejected = "worktree.rejected"
	// EvWorktreeRemoved records the removal of a worktree that was no
	// longer needed (after accept, or by a purge), with the reason.
	EvWorktreeRemoved = "worktree.removed"
	// EvConfigChanged records a configuration change applied from a
	// client (the TUI's settings, theme picker or developer menu): the keys,
	// when each takes effect and whether it was saved to .fluzo. Values
	// other than public preferences are redacted.
	EvConfigChanged = "config.changed"
)

// EventTypes lists every durable event type, in the order above.
var EventTypes = []string{
	EvSessionCreated, EvTaskCreated, EvTaskState, EvAttemptStarted, EvAttemptEnded,
	EvOperationRequested, EvOperationDecision, EvOperationIntent, EvOperationDispatched,
	EvOperationResult, EvOperationUnknown, EvPermissionRequested, EvPermissionResolved,
	EvGrantIssued, EvGrantConsumed, EvGrantExpired, EvGrantRevoked,
	EvProviderRequest, EvProviderResponse, EvMessage, EvVerification, EvCompaction,
	EvBudget, EvObservation, EvYolo, EvIntervention, EvRecovery,
	EvConfigSnapshot, EvPromptReceipt, EvWorkspaceState, EvAttemptResumed,
	EvResumeRevalidation, EvCommandResult, EvLoopDetected, EvOperationStopping,
	EvVerificationWaived, EvDiffSummary, EvToolBackendLost, EvToolBackendRestarted, EvToolBackendConnected,
	EvToolProcessesEnded,
	EvInterventionEdited, EvInterventionWithdrawn,
	EvMCPServerStarted, EvMCPServerFailed, EvMCPServerLost, EvMCPServerRestarted, EvMCPToolsChanged,
	EvConsentGranted, EvConsentRevoked,
	EvWorktreeCreated, EvWorktreeAttached, EvWorktreeRepair, EvWorktreeAccepted, EvWorktreeRejected, EvWorktreeRemoved,
	EvConfigChanged,
}

// IsEventType reports whether typ is a durable event type of the list.
func IsEventType(typ string) bool {
	for _, t := range EventTypes {
		if t == typ {
			return true
		}
	}
	return false
}

// LivePrefix marks non-durable updates (token deltas, progress). A live
// record never claims an outcome.
const LivePrefix = "live."

// IsLive reports whether a type is a live (non-durable) update.
func IsLive(typ string) bool { return strings.HasPrefix(typ, LivePrefix) }

// MatchType reports whether typ matches a filter pattern: an exact type,
// a prefix ending in ".*" or "*" alone. Several patterns may be given
// separated by commas.
func MatchType(pattern, typ string) bool {
	if pattern == "" {
		return true
	}
	for _, p := range strings.Split(pattern, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "*" || p == typ:
			return true
		case strings.HasSuffix(p, "*") && strings.HasPrefix(typ, strings.TrimSuffix(p, "*")):
			return true
		}
	}
	return false
}
