package observe

import "github.com/josecorral/fluzo/lib/core"

// What a Failure is about.
const (
	FailedTask            = "task"
	FailedAttempt         = "attempt"
	FailedOperation       = "operation"
	FailedProviderRequest = "provider request"
)

// Failure is one thing that went wrong in a task: the subject, its ID
// (none for the task itself), the tool of an operation, its state and the
// recorded reason (the rule of a denial).
type Failure struct {
	Subject string `json:"subject"`
	ID      string `json:"id,omitempty"`
	Tool    string `json:"tool,omitempty"`
	State   string `json:"state"`
	Reason  string `json:"reason,omitempty"`
}

// String is the failure as one sentence.
func (f Failure) String() string {
	switch f.Subject {
	case FailedTask:
		return "task " + f.State + reasonSuffix(f.Reason)
	case FailedAttempt:
		return "attempt " + f.ID + " " + f.State + reasonSuffix(f.Reason)
	case FailedOperation:
		head := "operation " + f.ID + " " + f.Tool
		switch f.State {
		case string(core.OpUnknown):
			return head + " outcome unknown (needs reconciliation; never retried automatically)"
		case string(core.OpDenied):
			return head + " denied" + reasonSuffix(f.Reason)
		}
		return head + " " + f.State
	}
	return f.Subject + " " + f.ID + " " + f.State
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}
