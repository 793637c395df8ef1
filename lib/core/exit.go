package core

// Exit codes shared by every binary (DESIGN §5). They are documented in each
// man page from ExitTable, so the table below is the single source.
const (
	ExitOK                    = 0
	ExitFailed                = 1
	ExitUsage                 = 2
	ExitConfigurationRequired = 3
	ExitPermissionRequired    = 4
	ExitPermissionDenied      = 5
	ExitBudgetExhausted       = 6
	ExitCapacityExhausted     = 7
	ExitCancelled             = 8
	ExitInterrupted           = 9
	ExitConfirmationRequired  = 10
	ExitWorkspaceBusy         = 11
	ExitProviderError         = 12
	ExitStorageError          = 13
)

// ExitRow describes one exit code for documentation.
type ExitRow struct {
	Code    int
	Status  string
	Meaning string
}

// ExitTable lists every exit code in order.
var ExitTable = []ExitRow{
	{ExitOK, "completed / ok", "success; for tasks, the verification contract was satisfied"},
	{ExitFailed, "failed", "handled failure: verification failed, an unrecoverable tool error, or a general error"},
	{ExitUsage, "usage", "bad flags or arguments"},
	{ExitConfigurationRequired, "configuration_required / invalid_configuration", "no or invalid .fluzo, or missing consent"},
	{ExitPermissionRequired, "permission_required", "an operation needs approval and none applies (headless)"},
	{ExitPermissionDenied, "permission_denied", "an explicit deny blocked required work"},
	{ExitBudgetExhausted, "budget_exhausted", "a turn, time, token or tool-call budget ran out"},
	{ExitCapacityExhausted, "capacity_exhausted / capacity_wait_timeout", "model or pool admission refused or timed out"},
	{ExitCancelled, "cancelled", "cancelled or force-stopped"},
	{ExitInterrupted, "interrupted / unknown_outcome", "needs reconciliation before it can continue"},
	{ExitConfirmationRequired, "confirmation_required", "a destructive action needs --yes"},
	{ExitWorkspaceBusy, "workspace_busy", "another process owns the workspace"},
	{ExitProviderError, "provider_error", "authentication, 429 or capacity rejection, blocked redirect, or protocol error"},
	{ExitStorageError, "storage_error", "the store or its guarantees are unavailable"},
}

var exitByCode = map[Code]int{
	CodeFailed:                ExitFailed,
	CodeUsage:                 ExitUsage,
	CodeConfigurationRequired: ExitConfigurationRequired,
	CodeInvalidConfiguration:  ExitConfigurationRequired,
	CodePermissionRequired:    ExitPermissionRequired,
	CodePermissionDenied:      ExitPermissionDenied,
	CodeBudgetExhausted:       ExitBudgetExhausted,
	CodeCapacityExhausted:     ExitCapacityExhausted,
	CodeCapacityWaitTimeout:   ExitCapacityExhausted,
	CodeCancelled:             ExitCancelled,
	CodeInterrupted:           ExitInterrupted,
	CodeUnknownOutcome:        ExitInterrupted,
	CodeConfirmationRequired:  ExitConfirmationRequired,
	CodeWorkspaceBusy:         ExitWorkspaceBusy,
	CodeProviderError:         ExitProviderError,
	CodeStorageError:          ExitStorageError,
}

// ExitFor maps an error code (or a task status, which shares the names) to
// the process exit code. Unknown codes are ExitFailed; "" and "completed"
// are ExitOK.
func ExitFor(code Code) int {
	switch code {
	case "", "completed", "ok":
		return ExitOK
	}
	if n, ok := exitByCode[code]; ok {
		return n
	}
	return ExitFailed
}

// ExitForError maps an error to an exit code (nil → 0).
func ExitForError(err error) int {
	if err == nil {
		return ExitOK
	}
	return ExitFor(AsError(err).Code)
}
