package provider

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Client talks to one OpenAI-compatible endpoint. It is safe for
// concurrent use.
type Client struct {
	ep   Endpoint
	base *url.URL
	http roundTripper
	// body reuses the previous request's encoded messages.
	body bodyCache
}

// New validates ep, fills defaults and returns a client.
func New(ep Endpoint) (*Client, error) {
	base, err := parseBaseURL(ep.BaseURL)
	if err != nil {
		return nil, err
	}
	if ep.Retries < 0 {
		return nil, core.Errorf(core.CodeInvalidConfiguration, "provider retries must be 0 or more, got %d", ep.Retries).
			WithHint("set provider_retries to a small non-negative number such as 1")
	}
	ep.Timeouts = ep.Timeouts.withDefaults()
	ep.Limits = ep.Limits.withDefaults()
	if len(ep.Backoff) == 0 {
		ep.Backoff = []time.Duration{time.Second, 2 * time.Second}
	}
	if ep.Sleep == nil {
		ep.Sleep = sleepContext
	}
	return &Client{ep: ep, base: base, http: newTransport()}, nil
}

// parseBaseURL accepts an absolute http(s) URL without credentials.
func parseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, core.Errorf(core.CodeInvalidConfiguration, "the endpoint base URL %q is not an absolute http or https URL", printable(clip(raw, 120))).
			WithHint("use a URL like http://127.0.0.1:8080/v1")
	}
	if u.User != nil {
		return nil, core.Errorf(core.CodeInvalidConfiguration, "the endpoint base URL must not contain credentials").
			WithHint("put the credential in the authentication file and reference it from the endpoint")
	}
	return u, nil
}

func (t Timeouts) withDefaults() Timeouts {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&t.Header, DefaultHeaderTimeout)
	def(&t.FirstOutput, DefaultFirstOutputTimeout)
	def(&t.Idle, DefaultIdleTimeout)
	def(&t.Total, DefaultTotalTimeout)
	return t
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxLineBytes, 4<<20)
	def(&l.MaxContentBytes, 4<<20)
	def(&l.MaxArgumentsBytes, 1<<20)
	def(&l.MaxToolCalls, 64)
	return l
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// url joins the base URL and an API path such as "/chat/completions".
func (c *Client) url(path string) string {
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	return u.String()
}

// Chat sends req and returns the complete response. onLive, when non-nil,
// receives live deltas while a stream arrives (display only). Transient
// failures are retried up to Endpoint.Retries times with backoff inside the
// Total budget; everything else fails at once. On failure the response is
// nil — no partial content or tool call is ever returned — and the error
// carries the class (ClassOf) and every physical attempt (AttemptsOf).
func (c *Client) Chat(ctx context.Context, req Request, onLive func(Delta)) (*Response, error) {
	if req.Model == "" || len(req.Messages) == 0 {
		return nil, core.Errorf(core.CodeInvalidRequest, "a chat request needs a model and at least one message").
			WithHint("set Request.Model and Request.Messages")
	}
	body, err := c.body.encode(req)
	if err != nil {
		return nil, core.Wrap(err, core.CodeInvalidRequest, "the chat request cannot be encoded")
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.ep.Timeouts.Total, &phaseError{class: ClassTimeoutTotal})
	defer cancel()
	var attempts []Attempt
	var backoff time.Duration
	for n := 1; ; n++ {
		resp, att, err := c.attempt(ctx, n, &req, body, onLive)
		att.Backoff = backoff
		attempts = append(attempts, att)
		if err == nil {
			resp.Attempts = attempts
			return resp, nil
		}
		if !ClassOf(err).Retryable() || n > c.ep.Retries {
			return nil, withAttempts(err, attempts)
		}
		backoff = c.backoff(n)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < backoff {
			e := withAttempts(err, attempts)
			e.Message += "; no retry fits in the remaining time budget"
			return nil, e
		}
		if c.ep.BeforeRetry != nil {
			if err := c.ep.BeforeRetry(ctx, n+1); err != nil {
				return nil, withAttempts(err, attempts)
			}
		}
		if att.Output && onLive != nil {
			onLive(Delta{Kind: DeltaRestart, Attempt: n})
		}
		if err := c.ep.Sleep(ctx, backoff); err != nil {
			return nil, withAttempts(contextError(ctx, err), attempts)
		}
	}
}

func (c *Client) backoff(n int) time.Duration {
	if n-1 < len(c.ep.Backoff) {
		return c.ep.Backoff[n-1]
	}
	return c.ep.Backoff[len(c.ep.Backoff)-1]
}

// withAttempts records the attempts on a provider error.
func withAttempts(err error, attempts []Attempt) *core.Error {
	e := core.AsError(err)
	e.With("attempts", attempts)
	return e
}

// contextError types a failure caused by ctx ending: a phase timeout, the
// total budget, or the caller's cancellation or deadline.
func contextError(ctx context.Context, err error) *core.Error {
	var pe *phaseError
	if errors.As(context.Cause(ctx), &pe) {
		return newError(pe.class, "%s", phaseMessage(pe.class))
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return newError(ClassTimeoutTotal, "%s", phaseMessage(ClassTimeoutTotal))
	}
	if ctx.Err() != nil {
		return newError(ClassCancelled, "the provider request was cancelled")
	}
	return nil
}

func phaseMessage(c Class) string {
	switch c {
	case ClassTimeoutHeader:
		return "no response headers arrived within the header timeout"
	case ClassTimeoutFirstOutput:
		return "the model produced no output within the first-output timeout"
	case ClassTimeoutIdle:
		return "the response stream was idle longer than the idle timeout"
	default:
		return "the provider request exceeded its total time budget"
	}
}
