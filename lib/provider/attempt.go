package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// attempt performs one physical request.
func (c *Client) attempt(ctx context.Context, n int, req *Request, body []byte, onLive func(Delta)) (*Response, Attempt, error) {
	start := time.Now()
	att := Attempt{N: n}
	t := c.ep.Timeouts
	if !req.Stream {
		// Without streaming, headers come when the answer is complete.
		t.Header += t.FirstOutput
	}
	actx, watch := startPhases(ctx, t, req.Stream)
	defer watch.stop()
	asm := newAssembler(c.ep.Limits, n)
	resp, err := c.send(actx, http.MethodPost, "/chat/completions", body, req.Stream)
	if err == nil {
		watch.headers()
		att.Status = resp.StatusCode
		err = c.checkStatus(resp)
		if err == nil {
			err = c.readBody(actx, resp, req.Stream, asm, watch, onLive)
		}
		resp.Body.Close()
	}
	if err != nil {
		err = typeFailure(actx, err, asm.output)
	}
	att.Output = asm.output
	att.Duration = time.Since(start)
	if err != nil {
		att.Class = ClassOf(err)
		att.Message = core.AsError(err).Message
		return nil, att, err
	}
	out, err := asm.response(req)
	if err != nil {
		att.Class, att.Message = ClassOf(err), core.AsError(err).Message
		return nil, att, err
	}
	return out, att, nil
}

// send builds and sends one request with the endpoint's headers.
func (c *Client) send(ctx context.Context, method, path string, body []byte, stream bool) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, c.url(path), rd)
	if err != nil {
		return nil, core.Wrap(err, core.CodeInvalidRequest, "the provider request cannot be built")
	}
	for k, v := range c.ep.Headers {
		hr.Header.Set(k, v)
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	hr.Header.Set("Accept", "application/json")
	if stream {
		hr.Header.Set("Accept", "text/event-stream")
	}
	key := c.ep.APIKey
	if c.ep.ResolveKey != nil {
		k, err := c.ep.ResolveKey()
		if err != nil {
			return nil, newError(ClassAuthentication, "the endpoint credential could not be resolved")
		}
		key = k
	}
	if key != "" {
		hr.Header.Set("Authorization", "Bearer "+key.Reveal())
	}
	hr.Header.Set("User-Agent", userAgent)
	resp, err := c.http.RoundTrip(hr)
	if err != nil {
		// RoundTrip's errors do not say where they went; typeFailure
		// names the endpoint from this.
		return nil, &url.Error{Op: method, URL: hr.URL.String(), Err: err}
	}
	return resp, nil
}

// checkStatus turns a 3xx or error status into a typed error. A redirect
// is reported with its status and a sanitized destination; its body and
// Location are never followed or echoed.
func (c *Client) checkStatus(resp *http.Response) error {
	s := resp.StatusCode
	switch {
	case s >= 200 && s < 300:
		return nil
	case s >= 300 && s < 400:
		dest := SanitizeLocation(c.base, resp.Header.Get("Location"))
		return newError(ClassRedirectBlocked, "the provider answered HTTP %d redirecting to %s; Fluzo never follows redirects", s, dest).
			With("status", s).With("destination", dest)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	class := classifyStatus(s, body)
	msg := serverMessage(body)
	e := newError(class, "the provider answered HTTP %d", s).With("status", s)
	if msg != "" {
		e.Message += ": " + msg
	}
	if fromSimulator(body) {
		e = e.WithHint("%s", simulatorHint)
	}
	return e
}

// readBody reads a successful response, streamed or not.
func (c *Client) readBody(ctx context.Context, resp *http.Response, stream bool, asm *assembler, w *phaseWatch, onLive func(Delta)) error {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	// Servers differ in labelling: trust an explicit event-stream type, and
	// otherwise anything but JSON when a stream was asked for.
	if mt == "text/event-stream" || (stream && mt != "application/json") {
		return c.readStream(resp.Body, asm, w, onLive)
	}
	body, err := io.ReadAll(io.LimitReader(touchReader{resp.Body, w}, int64(c.ep.Limits.MaxLineBytes)+1))
	if err != nil {
		return err
	}
	if len(body) > c.ep.Limits.MaxLineBytes {
		return newError(ClassProtocol, "the response body exceeds %d bytes", c.ep.Limits.MaxLineBytes)
	}
	var ch wireChunk
	if err := json.Unmarshal(body, &ch); err != nil {
		return newError(ClassProtocol, "the response body is not valid JSON")
	}
	if len(ch.Error) > 0 && string(ch.Error) != "null" {
		return streamError(ch.Error)
	}
	if len(ch.Choices) == 0 {
		return newError(ClassProtocol, "the response has no choices")
	}
	if err := asm.add(&ch, onLive); err != nil {
		return err
	}
	w.output()
	return nil
}

// readStream consumes an SSE body into asm. The stream is complete at
// "data: [DONE]", or at end of body after a finish_reason; anything else is
// a truncated stream, whose partial output is discarded by the caller.
func (c *Client) readStream(body io.Reader, asm *assembler, w *phaseWatch, onLive func(Delta)) error {
	sse := newSSEReader(body, c.ep.Limits.MaxLineBytes)
	seen := false
	for {
		data, event, err := sse.next()
		if errors.Is(err, io.EOF) {
			if asm.finish != "" {
				return nil
			}
			return newError(ClassTransient, "the stream ended before the response was complete; the partial answer was discarded")
		}
		if errors.Is(err, errLineTooLong) {
			return newError(ClassProtocol, "an event-stream line exceeds %d bytes", c.ep.Limits.MaxLineBytes)
		}
		if err != nil {
			return err
		}
		w.touch() // a data event is progress; keep-alive comments are not
		if string(bytes.TrimSpace(data)) == "[DONE]" {
			return nil
		}
		var ch wireChunk
		if err := json.Unmarshal(data, &ch); err != nil {
			return newError(ClassProtocol, "a stream chunk is not valid JSON; nothing from this response was executed")
		}
		if event == "error" || (len(ch.Error) > 0 && string(ch.Error) != "null") {
			return streamError(data)
		}
		if err := asm.add(&ch, onLive); err != nil {
			return err
		}
		if asm.output && !seen {
			seen = true
			w.output()
		}
	}
}

// streamError types an error object sent inside a 200 response.
func streamError(body []byte) error {
	class := ClassTransient
	if mentionsCapacity(body) {
		class = ClassCapacityRejected
	}
	e := newError(class, "the provider reported an error inside the response")
	if m := serverMessage(body); m != "" {
		e.Message += ": " + m
	}
	return e
}

// typeFailure gives an untyped transport or read error its class.
func typeFailure(ctx context.Context, err error, output bool) error {
	var fe *core.Error
	if errors.As(err, &fe) {
		return err
	}
	if ce := contextError(ctx, err); ce != nil {
		return ce
	}
	var ue *url.Error
	endpoint := ""
	if errors.As(err, &ue) {
		err, endpoint = ue.Err, redactedURL(ue.URL)
	}
	msg := "the connection to the provider failed"
	hint := classHints[ClassTransient]
	if output {
		msg = "the connection broke after partial output; the partial answer was discarded"
	} else if what := core.DescribeSystemError(err); what != "" && endpoint != "" {
		// Name what happened and where: "connection refused" at this URL
		// says more than any class of failure.
		msg = fmt.Sprintf("cannot connect to %s: %s", endpoint, what)
		if errors.Is(err, syscall.ECONNREFUSED) {
			hint = "nothing listens at that address: start the model server, or fix the model's base_url in .fluzo"
		}
	}
	return core.Wrap(err, core.CodeProviderError, msg).With("class", string(ClassTransient)).
		WithHint("%s", hint)
}

// redactedURL drops any credentials from a request URL before it is
// shown.
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Redacted()
}

// touchReader reports body progress to the idle timer.
type touchReader struct {
	r io.Reader
	w *phaseWatch
}

func (t touchReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.w.touch()
	}
	return n, err
}
