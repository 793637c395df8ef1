package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
)

// Refs locate a record in the session/task/attempt hierarchy.
type Refs struct {
	Session string `json:"session"`
	Task    string `json:"task"`
	Attempt string `json:"attempt"`
	Trace   string `json:"trace"`
}

// taskStart describes a new task.
type taskStart struct {
	Session string // "" creates a new session
	Request string
	Verify  string
	// NoVerify is the user's explicit waiver of the verification contract
	// (--no-verify); it only applies when Verify is empty.
	NoVerify bool
	Config   []byte // effective configuration snapshot
	Sandbox  []byte // the effective command sandbox, recorded with it
	// Grants are task-scoped grants (from --allow), issued with the task
	// under the ids policy evaluation reports.
	Grants []core.Grant
	// ID is the task's id when it was chosen before the task exists (a
	// worktree is named after it); "" makes a new one.
	ID string
	// Worktree is the isolated worktree the task runs in (nil: in place).
	Worktree *taskWorktree
}

// journal is the durable record of a run. Every method commits one
// transaction in which the state change and its event are written
// together, so a crash leaves either both or neither.
type journal interface {
	StartTask(ctx context.Context, t taskStart) (Refs, error)
	// Record appends a durable event for refs.
	Record(ctx context.Context, refs Refs, typ string, data any) (core.Event, error)
	OpRequested(ctx context.Context, refs Refs, call toolCall) (string, error)
	// OpAuthorize records the policy decision for op (creating the
	// operation first when op is "") and, when allowed, commits the
	// intent with any once-grant consumption — all in one transaction,
	// before anything is dispatched. It returns the operation id.
	OpAuthorize(ctx context.Context, refs Refs, call toolCall, op string, d Decision) (string, error)
	// OpResult commits everything that follows a dispatch in one
	// transaction: the dispatch marker, the outcome, the reference to
	// the artifact holding the full result (written durably first) and
	// the events derived from the outcome. With OpAuthorize that makes a
	// tool call exactly two commits. It returns the artifact id ("" when
	// the result had none).
	OpResult(ctx context.Context, refs Refs, op string, r toolResult) (string, error)
	PutArtifact(ctx context.Context, refs Refs, data []byte, mediaType string) (string, error)
	// RecordStart stores data as an artifact (durably, first), then
	// commits in one transaction its link to the session, the events
	// build returns for its id — a task start's workspace records and
	// prompt receipt — and, when reserve is non-nil, the first model
	// request reserved and marked dispatched (its ID set on success), so
	// they cost one commit, not one each. It returns the artifact id.
	RecordStart(ctx context.Context, refs Refs, data []byte, mediaType string, reserve *reservation, build func(artifact string) []derivedEvent) (string, error)
	ProviderStart(ctx context.Context, refs Refs, purpose, model string) (string, error)
	// ProviderEnd settles a provider request; message, when non-nil, is
	// recorded as its message event in the same transaction.
	ProviderEnd(ctx context.Context, refs Refs, id, state string, u usage, message any) error
	// ProviderEndWithNext is ProviderEnd committed with the run's next
	// commit instead of in one of its own: a turn's response with tool
	// calls settles in the first call's commit (its decision and intent),
	// which comes before anything is dispatched, so a turn of tool calls
	// costs one commit fewer. A crash before that commit leaves the
	// request dispatched, which recovery marks uncertain, as it does a
	// crash while the response streams.
	ProviderEndWithNext(ctx context.Context, refs Refs, id, state string, u usage, message any) error
	// ProviderFailed settles a provider request that ended in an error,
	// recording the error's detail in its event.
	ProviderFailed(ctx context.Context, refs Refs, id, state string, cause error) error
	// Compacted records a completed compaction whose artifact is already
	// durable; only then does the active context move.
	Compacted(ctx context.Context, refs Refs, c compaction) error
	// Finish records the attempt's outcome and the task's resulting state.
	Finish(ctx context.Context, refs Refs, task core.TaskState, attempt core.AttemptState, reason string) error
}

// compaction is the record of one completed compaction. Token counts are
// the runtime's estimates (never reported usage).
type compaction struct {
	BeforeTokens int64
	AfterTokens  int64
	Summary      string
	Artifact     string
	// From and To are the summarized message range [From, To).
	From, To int
	Trigger  int
}

// toolResult is a tool call's outcome as it commits.
type toolResult struct {
	Out toolOutcome
	// Full, when non-nil, is the complete result, too large for the
	// context; it is stored as an artifact referenced by the outcome.
	Full []byte
	// Events are events derived from the outcome (command.result,
	// loop.detected), recorded with it.
	Events []derivedEvent
	// Reserve, when non-nil, is the next model request, reserved (and
	// marked dispatched, as ProviderStart does) in the outcome's commit
	// so that the request costs one commit fewer; its ID is set when the
	// commit succeeds.
	Reserve *reservation
}

// reservation is a provider request reserved ahead of its send.
type reservation struct {
	Purpose, Model string
	ID             string
}

// derivedEvent is an event to record with an outcome.
type derivedEvent struct {
	Type string
	Data any
}
