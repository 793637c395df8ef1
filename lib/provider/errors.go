package provider

import (
	"errors"
	"net/url"

	"github.com/josecorral/fluzo/lib/core"
)

// Class is the fine classification of a provider failure. Every provider
// error has core code "provider_error" (exit 12) — except caller
// cancellation, which is "cancelled" — and carries its Class in
// Details["class"]; ClassOf reads it back.
type Class string

// Provider error classes. They are part of the wire contract.
const (
	ClassAuthentication     Class = "authentication"
	ClassInvalidRequest     Class = "invalid_request"
	ClassRateLimited        Class = "rate_limited"
	ClassCapacityRejected   Class = "capacity_rejected"
	ClassTransient          Class = "transient"
	ClassProtocol           Class = "protocol_error"
	ClassRedirectBlocked    Class = "redirect_blocked"
	ClassTimeoutHeader      Class = "timeout_header"
	ClassTimeoutFirstOutput Class = "timeout_first_output"
	ClassTimeoutIdle        Class = "timeout_idle"
	ClassTimeoutTotal       Class = "timeout_total"
	ClassCancelled          Class = "cancelled"
)

// Retryable reports whether a failure of class c may be retried
// automatically. Only transient failures are: 429, capacity and quota
// rejections, authentication, invalid requests, redirects, protocol errors
// and timeouts never are.
func (c Class) Retryable() bool { return c == ClassTransient }

var classHints = map[Class]string{
	ClassAuthentication:     "check the credential reference configured for this endpoint",
	ClassInvalidRequest:     "the server rejected the request; check the model name and the endpoint's API subset",
	ClassRateLimited:        "the server is rate limiting; Fluzo does not retry or wait automatically — resume when it has capacity",
	ClassCapacityRejected:   "the server reported no capacity or quota; Fluzo does not retry automatically — resume later or choose another model explicitly",
	ClassTransient:          "the server failed temporarily; resume the task to try again",
	ClassProtocol:           "the server's answer did not follow the OpenAI-compatible protocol; nothing from it was executed",
	ClassRedirectBlocked:    "Fluzo never follows redirects; configure the final endpoint URL explicitly",
	ClassTimeoutHeader:      "the server did not answer in time; raise the header timeout or check the server",
	ClassTimeoutFirstOutput: "the model produced no output in time; raise the first-output timeout or check the server load",
	ClassTimeoutIdle:        "the stream stalled; raise the idle timeout or check the server",
	ClassTimeoutTotal:       "the request exceeded its total time budget",
	ClassCancelled:          "the request was cancelled",
}

// newError builds the typed error for class c.
func newError(c Class, format string, args ...any) *core.Error {
	code := core.CodeProviderError
	if c == ClassCancelled {
		code = core.CodeCancelled
	}
	e := core.Errorf(code, format, args...).With("class", string(c))
	if h := classHints[c]; h != "" {
		e = e.WithHint("%s", h)
	}
	return e
}

// ClassOf returns the provider class of err, or "" when err is not a
// provider error.
func ClassOf(err error) Class {
	var fe *core.Error
	if !errors.As(err, &fe) || fe.Details == nil {
		return ""
	}
	c, _ := fe.Details["class"].(string)
	return Class(c)
}

// AttemptsOf returns the physical attempts recorded on a failed call.
func AttemptsOf(err error) []Attempt {
	var fe *core.Error
	if !errors.As(err, &fe) || fe.Details == nil {
		return nil
	}
	a, _ := fe.Details["attempts"].([]Attempt)
	return a
}

// StatusOf returns the HTTP status recorded on a provider error (0 if none).
func StatusOf(err error) int {
	var fe *core.Error
	if !errors.As(err, &fe) || fe.Details == nil {
		return 0
	}
	s, _ := fe.Details["status"].(int)
	return s
}

// SanitizeLocation summarises a redirect target without its credentials,
// path, query or fragment: "https://host:port (cross-origin)",
// "same origin", "relative" or "unparseable".
func SanitizeLocation(base *url.URL, location string) string {
	if location == "" {
		return "missing"
	}
	u, err := url.Parse(location)
	if err != nil {
		return "unparseable"
	}
	if !u.IsAbs() && u.Host == "" {
		return "relative (same origin)"
	}
	scheme := u.Scheme
	if scheme == "" {
		scheme = base.Scheme
	}
	origin := scheme + "://" + u.Host
	if base != nil && scheme == base.Scheme && u.Host == base.Host {
		return origin + " (same origin)"
	}
	return origin + " (cross-origin)"
}
