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

// Event types with a fixed meaning across binaries.
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
	EvRecovery            = "recovery"
)

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
