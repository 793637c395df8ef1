package core

import (
	"errors"
	"fmt"
)

// Code is a stable, snake_case error code. Codes are part of the wire
// contract: scripts match on them, so they are never renamed.
type Code string

// Codes shared by every binary. Packages may define more; ExitFor maps
// any code it does not know to ExitFailed.
const (
	CodeFailed                Code = "failed"
	CodeUsage                 Code = "usage"
	CodeConfigurationRequired Code = "configuration_required"
	CodeInvalidConfiguration  Code = "invalid_configuration"
	CodePermissionRequired    Code = "permission_required"
	CodePermissionDenied      Code = "permission_denied"
	CodeBudgetExhausted       Code = "budget_exhausted"
	CodeCapacityExhausted     Code = "capacity_exhausted"
	CodeCapacityWaitTimeout   Code = "capacity_wait_timeout"
	CodeCancelled             Code = "cancelled"
	CodeInterrupted           Code = "interrupted"
	CodeUnknownOutcome        Code = "unknown_outcome"
	CodeConfirmationRequired  Code = "confirmation_required"
	CodeWorkspaceBusy         Code = "workspace_busy"
	CodeProviderError         Code = "provider_error"
	CodeStorageError          Code = "storage_error"
	CodeNotFound              Code = "not_found"
	CodeInvalidRequest        Code = "invalid_request"
	CodeIllegalTransition     Code = "illegal_transition"
	CodeInternal              Code = "internal"
)

// Error is Fluzo's typed error: what happened (Message, a sentence), what to
// do about it (Hint) and a stable Code. Details carry machine-readable
// context such as the key, path or limit involved.
type Error struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Hint    string         `json:"hint,omitempty"`
	Details map[string]any `json:"details,omitempty"`
	cause   error
}

// Errorf builds a typed error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap builds a typed error that keeps cause for errors.Is/As and logs, but
// never shows its raw text as the whole message.
func Wrap(cause error, code Code, message string) *Error {
	return &Error{Code: code, Message: message, cause: cause}
}

// WithHint returns e with a hint set.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// With returns e with one detail added.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

func (e *Error) Error() string {
	if e.cause != nil {
		return e.Message + ": " + e.cause.Error()
	}
	return e.Message
}

// Unwrap exposes the cause.
func (e *Error) Unwrap() error { return e.cause }

// Cause returns the wrapped error, if any.
func (e *Error) Cause() error { return e.cause }

// AsError returns err as a typed error. An untyped error becomes CodeFailed
// with its text as message, so that nothing is lost, but callers should
// prefer typing errors where they arise.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	return &Error{Code: CodeFailed, Message: err.Error(), cause: err}
}

// CodeOf returns the code of err ("" for nil).
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}
