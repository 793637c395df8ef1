package otlphttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Retry bounds how one request is tried again after a transient failure
// (a transport error, or 429, 502, 503, 504 — OTLP's retryable answers).
type Retry struct {
	Enabled bool
	// Initial is the first wait, doubled up to Max; a Retry-After the
	// collector sends replaces it.
	Initial, Max time.Duration
	// MaxElapsed bounds the whole request, retries included (0: no bound).
	MaxElapsed time.Duration
}

// Sender posts encoded OTLP requests to one signal's URL. It never reads
// OTEL_* variables: everything it does is in its fields.
type Sender struct {
	Client  *http.Client
	URL     string
	Headers map[string]string
	// Timeout bounds one attempt.
	Timeout time.Duration
	Retry   Retry
	// Permanent reports a transport error not worth another attempt (a
	// refused redirect); nil: every transport error is retried.
	Permanent func(error) bool
	// pause waits d between attempts (tests observe the waits instead).
	pause func(ctx context.Context, d time.Duration) error
}

// StatusError is a collector's non-2xx answer.
type StatusError struct {
	Code int
	Body string
}

func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("the collector answered %d", e.Code)
	}
	return fmt.Sprintf("the collector answered %d: %s", e.Code, e.Body)
}

// Send delivers body, retrying as s.Retry allows. The error is the last
// attempt's.
func (s *Sender) Send(ctx context.Context, body []byte) error {
	start := time.Now()
	wait := s.Retry.Initial
	for {
		retryAfter, err := s.attempt(ctx, body)
		if err == nil {
			return nil
		}
		if !s.Retry.Enabled || !s.retryable(err) {
			return err
		}
		pause := wait
		if retryAfter > 0 {
			pause = retryAfter
		}
		if s.Retry.MaxElapsed > 0 && time.Since(start)+pause > s.Retry.MaxElapsed {
			return err
		}
		sleep := s.pause
		if sleep == nil {
			sleep = sleepCtx
		}
		if perr := sleep(ctx, pause); perr != nil {
			return errors.Join(perr, err)
		}
		wait = min(2*wait, max(s.Retry.Max, s.Retry.Initial))
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (s *Sender) retryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		switch se.Code {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return s.Permanent == nil || !s.Permanent(err)
}

// maxErrorBody bounds how much of an error answer is kept (and read).
const maxErrorBody = 512

func (s *Sender) attempt(ctx context.Context, body []byte) (retryAfter time.Duration, err error) {
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("User-Agent", "fluzo/"+core.Version)
	for k, v := range s.Headers {
		req.Header.Set(k, v)
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		// The answer may report a partial success; nothing here acts on it.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return 0, nil
	}
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
		retryAfter = time.Duration(secs) * time.Second
	}
	return retryAfter, &StatusError{Code: resp.StatusCode, Body: printable(msg)}
}

// printable keeps a collector's error text to one plain line.
func printable(b []byte) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		switch {
		case c == '\n' || c == '\r' || c == '\t':
			out = append(out, ' ')
		case c >= 0x20 && c < 0x7f:
			out = append(out, c)
		}
	}
	return string(bytes.TrimSpace(out))
}
