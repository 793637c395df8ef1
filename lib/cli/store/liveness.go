package storecli

import (
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// owner is what the workspace-owner lock says now. The store's states are
// history written by the last owner; whether a "running" task still runs
// depends on that owner being alive, which only the lock can tell.
type owner int

const (
	ownerPresent owner = iota
	ownerGone
	ownerUnknown // the probe failed: liveness is not known
)

func probeOwner(s *store.Store) owner {
	active, err := store.OwnerActive(s.Workspace())
	switch {
	case err != nil:
		return ownerUnknown
	case active:
		return ownerPresent
	}
	return ownerGone
}

// live reports whether a stored running state may still be true.
func live(state string) bool {
	return state == string(core.TaskRunning) || state == string(core.TaskStopping)
}

// taskState is the state to show for a task: "interrupted" when its
// owner died (or recovery already said so), "unknown" for a running task
// whose owner cannot be probed, its stored state otherwise.
func (o owner) taskState(t core.Task) string {
	if o == ownerUnknown && live(string(t.State)) {
		return "unknown"
	}
	return t.ShownState(o != ownerGone)
}

func (o owner) interrupted(t core.Task) bool {
	return t.Interrupted(o != ownerGone) && !(o == ownerUnknown && live(string(t.State)))
}

// attemptState is the same for an attempt: the next owner's recovery
// will record a running attempt of a dead owner interrupted.
func (o owner) attemptState(a core.Attempt) string {
	if a.State != core.AttemptRunning {
		return string(a.State)
	}
	switch o {
	case ownerGone:
		return string(core.AttemptInterrupted)
	case ownerUnknown:
		return "unknown"
	}
	return string(a.State)
}

// operationState: an operation of a dead owner that was dispatched (or
// about to be) has an unknown outcome, as recovery will record.
func (o owner) operationState(op core.Operation) string {
	if o == ownerGone && op.State.Unresolved() {
		return string(core.OpUnknown)
	}
	return string(op.State)
}

// taskRecord is a task as --json prints it: "state" is the shown state,
// "stored_state" the record as stored when the two differ (history is
// never rewritten, only read against the owner lock), and "resume" the
// command that continues an interrupted task.
type taskRecord struct {
	core.Task
	State       string `json:"state"`
	StoredState string `json:"stored_state,omitempty"`
	Resume      string `json:"resume,omitempty"`
}

func (o owner) taskRecord(t core.Task) taskRecord {
	r := taskRecord{Task: t, State: o.taskState(t)}
	if r.State != string(t.State) {
		r.StoredState = string(t.State)
	}
	if o.interrupted(t) {
		r.Resume = core.ResumeCommand(t.ID)
	}
	return r
}

type attemptRecord struct {
	core.Attempt
	State       string `json:"state"`
	StoredState string `json:"stored_state,omitempty"`
}

func (o owner) attemptRecord(a core.Attempt) attemptRecord {
	r := attemptRecord{Attempt: a, State: o.attemptState(a)}
	if r.State != string(a.State) {
		r.StoredState = string(a.State)
	}
	return r
}

type operationRecord struct {
	core.Operation
	State       string `json:"state"`
	StoredState string `json:"stored_state,omitempty"`
}

func (o owner) operationRecord(op core.Operation) operationRecord {
	r := operationRecord{Operation: op, State: o.operationState(op)}
	if r.State != string(op.State) {
		r.StoredState = string(op.State)
	}
	return r
}
