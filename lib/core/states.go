package core

import "fmt"

// stateMachine is a table of legal transitions for one kind of record.
// Keeping every machine as data makes the rules reviewable in one place and
// lets the tests enumerate every (from, to) pair.
type stateMachine[S ~string] struct {
	kind  string
	edges map[S][]S
}

func (m stateMachine[S]) can(from, to S) bool {
	for _, t := range m.edges[from] {
		if t == to {
			return true
		}
	}
	return false
}

func (m stateMachine[S]) transition(from, to S) error {
	if _, known := m.edges[to]; !known {
		return Errorf(CodeIllegalTransition, "unknown %s state %q", m.kind, to)
	}
	if !m.can(from, to) {
		return Errorf(CodeIllegalTransition, "a %s cannot go from %s to %s", m.kind, from, to).
			WithHint("this is a bug in the caller; the record was left unchanged")
	}
	return nil
}

func (m stateMachine[S]) terminal(s S) bool { return len(m.edges[s]) == 0 }

func (m stateMachine[S]) valid(s S) bool { _, ok := m.edges[s]; return ok }

// TaskState is the lifecycle of a task (PRD §17).
type TaskState string

const (
	TaskPending   TaskState = "pending"
	TaskReady     TaskState = "ready"
	TaskRunning   TaskState = "running"
	TaskWaiting   TaskState = "waiting"
	TaskBlocked   TaskState = "blocked"
	TaskStopping  TaskState = "stopping"
	TaskCompleted TaskState = "completed"
	TaskFailed    TaskState = "failed"
	TaskCancelled TaskState = "cancelled"
)

var taskMachine = stateMachine[TaskState]{kind: "task", edges: map[TaskState][]TaskState{
	TaskPending:  {TaskReady, TaskCancelled, TaskFailed},
	TaskReady:    {TaskRunning, TaskCancelled, TaskFailed},
	TaskRunning:  {TaskWaiting, TaskBlocked, TaskStopping, TaskCompleted, TaskFailed, TaskCancelled},
	TaskWaiting:  {TaskRunning, TaskBlocked, TaskStopping, TaskFailed, TaskCancelled},
	TaskBlocked:  {TaskReady, TaskRunning, TaskStopping, TaskFailed, TaskCancelled},
	TaskStopping: {TaskCancelled, TaskFailed, TaskBlocked},
	// A failed task may be resumed explicitly (a new attempt), e.g. after a
	// budget extension; completed and cancelled are final.
	TaskFailed:    {TaskReady},
	TaskCompleted: {},
	TaskCancelled: {},
}}

// CanTransition reports whether s may become to.
func (s TaskState) CanTransition(to TaskState) bool { return taskMachine.can(s, to) }

// Transition returns nil when s may become to, or an illegal_transition error.
func (s TaskState) Transition(to TaskState) error { return taskMachine.transition(s, to) }

// Terminal reports whether no transition leaves s (failed is resumable, so
// Final is the better question for "is the task over").
func (s TaskState) Terminal() bool { return taskMachine.terminal(s) }

// Final reports whether the task has ended (completed, failed or cancelled).
func (s TaskState) Final() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// Valid reports whether s is a known task state.
func (s TaskState) Valid() bool { return taskMachine.valid(s) }

// AttemptState is the lifecycle of one attempt at a task. An attempt ends
// exactly once; "interrupted" is set by recovery when a process died with
// the attempt running.
type AttemptState string

const (
	AttemptRunning     AttemptState = "running"
	AttemptCompleted   AttemptState = "completed"
	AttemptFailed      AttemptState = "failed"
	AttemptCancelled   AttemptState = "cancelled"
	AttemptInterrupted AttemptState = "interrupted"
)

var attemptMachine = stateMachine[AttemptState]{kind: "attempt", edges: map[AttemptState][]AttemptState{
	AttemptRunning:     {AttemptCompleted, AttemptFailed, AttemptCancelled, AttemptInterrupted},
	AttemptCompleted:   {},
	AttemptFailed:      {},
	AttemptCancelled:   {},
	AttemptInterrupted: {},
}}

func (s AttemptState) CanTransition(to AttemptState) bool { return attemptMachine.can(s, to) }
func (s AttemptState) Transition(to AttemptState) error   { return attemptMachine.transition(s, to) }
func (s AttemptState) Terminal() bool                     { return attemptMachine.terminal(s) }
func (s AttemptState) Valid() bool                        { return attemptMachine.valid(s) }

// OperationState is the lifecycle of one tool call (DESIGN §6). Intent is
// durable before dispatch; an operation whose outcome was not recorded
// becomes unknown and is never retried automatically — only an explicit
// reconciliation may settle it.
type OperationState string

const (
	OpRequested       OperationState = "requested"
	OpAuthorized      OperationState = "authorized"
	OpDenied          OperationState = "denied"
	OpIntentCommitted OperationState = "intent_committed"
	OpDispatched      OperationState = "dispatched"
	OpSucceeded       OperationState = "succeeded"
	OpFailed          OperationState = "failed"
	OpUnknown         OperationState = "unknown"
)

var operationMachine = stateMachine[OperationState]{kind: "operation", edges: map[OperationState][]OperationState{
	OpRequested:       {OpAuthorized, OpDenied},
	OpAuthorized:      {OpIntentCommitted, OpDenied},
	OpIntentCommitted: {OpDispatched, OpFailed, OpUnknown},
	OpDispatched:      {OpSucceeded, OpFailed, OpUnknown},
	OpUnknown:         {OpSucceeded, OpFailed},
	OpDenied:          {},
	OpSucceeded:       {},
	OpFailed:          {},
}}

func (s OperationState) CanTransition(to OperationState) bool { return operationMachine.can(s, to) }
func (s OperationState) Transition(to OperationState) error {
	return operationMachine.transition(s, to)
}
func (s OperationState) Terminal() bool { return operationMachine.terminal(s) }
func (s OperationState) Valid() bool    { return operationMachine.valid(s) }

// Unresolved reports whether recovery must mark the operation unknown: an
// intent exists but no outcome was recorded.
func (s OperationState) Unresolved() bool { return s == OpIntentCommitted || s == OpDispatched }

// SlotState is the lifecycle of a provider request and of the capacity slot
// it holds. An uncertain slot stays occupied until reconciled.
type SlotState string

const (
	SlotReserved                SlotState = "reserved"
	SlotDispatched              SlotState = "dispatched"
	SlotCompleted               SlotState = "completed"
	SlotCancelledBeforeDispatch SlotState = "cancelled_before_dispatch"
	SlotUncertain               SlotState = "uncertain"
)

var slotMachine = stateMachine[SlotState]{kind: "provider request", edges: map[SlotState][]SlotState{
	SlotReserved:                {SlotDispatched, SlotCancelledBeforeDispatch},
	SlotDispatched:              {SlotCompleted, SlotUncertain},
	SlotUncertain:               {SlotCompleted},
	SlotCompleted:               {},
	SlotCancelledBeforeDispatch: {},
}}

func (s SlotState) CanTransition(to SlotState) bool { return slotMachine.can(s, to) }
func (s SlotState) Transition(to SlotState) error   { return slotMachine.transition(s, to) }
func (s SlotState) Terminal() bool                  { return slotMachine.terminal(s) }
func (s SlotState) Valid() bool                     { return slotMachine.valid(s) }

// Occupied reports whether a slot in this state counts against capacity.
func (s SlotState) Occupied() bool {
	return s == SlotReserved || s == SlotDispatched || s == SlotUncertain
}

// GrantState is the lifecycle of a permission grant (PRD §12.1).
type GrantState string

const (
	GrantIssued   GrantState = "issued"
	GrantConsumed GrantState = "consumed"
	GrantExpired  GrantState = "expired"
	GrantRevoked  GrantState = "revoked"
)

var grantMachine = stateMachine[GrantState]{kind: "grant", edges: map[GrantState][]GrantState{
	GrantIssued:   {GrantConsumed, GrantExpired, GrantRevoked},
	GrantConsumed: {},
	GrantExpired:  {},
	GrantRevoked:  {},
}}

func (s GrantState) CanTransition(to GrantState) bool { return grantMachine.can(s, to) }
func (s GrantState) Transition(to GrantState) error   { return grantMachine.transition(s, to) }
func (s GrantState) Terminal() bool                   { return grantMachine.terminal(s) }
func (s GrantState) Valid() bool                      { return grantMachine.valid(s) }

// GrantScope says how long a grant lives: once (consumed with the operation
// intent), task (expires with the task) or standing (from configuration).
type GrantScope string

const (
	GrantOnce     GrantScope = "once"
	GrantTask     GrantScope = "task"
	GrantStanding GrantScope = "standing"
)

// String implementations keep %s output plain.
func (s TaskState) String() string      { return string(s) }
func (s AttemptState) String() string   { return string(s) }
func (s OperationState) String() string { return string(s) }
func (s SlotState) String() string      { return string(s) }
func (s GrantState) String() string     { return string(s) }

var _ fmt.Stringer = TaskState("")
