package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
)

// Verification outcomes carried by the result record.
const (
	VerifyPassed        = "passed"
	VerifyFailed        = "failed"
	VerifyStale         = "stale"
	VerifyNotRun        = "not_run"
	VerifyNotConfigured = "not_configured"
	VerifyWaived        = "waived"
)

// ReasonVerificationNotConfigured is the failure reason of a task that has
// neither a verification command nor a recorded waiver.
const ReasonVerificationNotConfigured = "verification_not_configured"

// workspaceStateUnknown is the fingerprint recorded when it could not be
// read. Two unknown states are not the same state.
const workspaceStateUnknown = "unknown"

// ReasonVerificationCancelled is the reason of a not_run verdict whose
// command the task's cancellation ended before it could decide.
const ReasonVerificationCancelled = "verification_cancelled"

// VerificationRun is the evidence of one run of the verification command.
type VerificationRun struct {
	Command  string `json:"command"`
	ExitCode int    `json:"exit_code"`
	// State is the workspace fingerprint the command ran against and
	// EditSeq the number of edits the attempt had made by then.
	State   string `json:"state"`
	EditSeq int64  `json:"edit_seq"`
	Output  string `json:"output,omitempty"` // bounded tail, for evidence
}

// Passed reports whether the command exited 0.
func (r VerificationRun) Passed() bool { return r.ExitCode == 0 }

// Verdict is what the verification contract concludes about a task.
type Verdict struct {
	Completed    bool             `json:"completed"`
	Verification string           `json:"verification"` // one of the Verify* outcomes
	Reason       string           `json:"reason,omitempty"`
	Evidence     *VerificationRun `json:"evidence,omitempty"`
	// EditsSince is how many edits the attempt made after the evidence
	// ran, so a stale verdict says how stale (0 with a changed state: the
	// workspace changed some other way).
	EditsSince int64 `json:"edits_since,omitempty"`
}

// DecideVerification applies the contract: a task is completed only when
// the verification command passed at the current workspace state, after
// the attempt's last edit. The model saying it is done is not evidence.
// With no verification command the task completes only under an explicit
// recorded waiver; otherwise it fails as not configured.
func DecideVerification(command string, waived bool, last *VerificationRun, editSeq int64, currentState string) Verdict {
	switch {
	case command == "" && waived:
		return Verdict{Completed: true, Verification: VerifyWaived}
	case command == "":
		return Verdict{Verification: VerifyNotConfigured, Reason: ReasonVerificationNotConfigured}
	case last == nil:
		return Verdict{Verification: VerifyNotRun, Reason: "verification_not_run"}
	case last.State == workspaceStateUnknown || last.State == "" || currentState == workspaceStateUnknown || currentState == "":
		return Verdict{Verification: VerifyStale, Reason: core.UnknownStateReason, Evidence: last, EditsSince: editSeq - last.EditSeq}
	case last.EditSeq != editSeq || last.State != currentState:
		return Verdict{Verification: VerifyStale, Reason: "workspace_changed_after_verification", Evidence: last, EditsSince: editSeq - last.EditSeq}
	case !last.Passed():
		return Verdict{Verification: VerifyFailed, Reason: "verification_failed", Evidence: last}
	}
	return Verdict{Completed: true, Verification: VerifyPassed, Evidence: last}
}

// WorkspaceFingerprint asks the backend to identify the current state of
// its working tree: HEAD, the index and working-tree status, and the
// content of every changed or untracked (not ignored) file, runtime state
// in .fluzodrive excluded.
func WorkspaceFingerprint(ctx context.Context, q querier) (string, error) {
	var fp tools.Fingerprint
	if err := q.Query(ctx, tools.QueryFingerprint, nil, &fp); err != nil {
		return "", err
	}
	return fp.Fingerprint, nil
}
