package otlphttp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// answering is a collector that gives the answers in order (the last one
// from then on) and counts the requests.
func answering(t *testing.T, answers ...func(http.ResponseWriter)) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		answers[min(i, len(answers)-1)](w)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func status(code int, header ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		if code >= 400 {
			w.Write([]byte("no\nway\x00"))
		}
	}
}

// sender is a Sender to url whose waits are recorded, not slept.
func sender(url string, retry Retry) (*Sender, *[]time.Duration) {
	var waits []time.Duration
	s := &Sender{Client: http.DefaultClient, URL: url, Timeout: 5 * time.Second, Retry: retry,
		pause: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	return s, &waits
}

var retrying = Retry{Enabled: true, Initial: 100 * time.Millisecond, Max: 250 * time.Millisecond, MaxElapsed: time.Minute}

func TestTransientAnswersAreRetriedHonouringRetryAfter(t *testing.T) {
	srv, n := answering(t, status(503, "Retry-After", "3"), status(429), status(502), status(504), status(200))
	s, waits := sender(srv.URL, retrying)
	if err := s.Send(context.Background(), []byte("body")); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 5 {
		t.Fatalf("%d requests, want 5", n.Load())
	}
	want := []time.Duration{3 * time.Second, 200 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond}
	if len(*waits) != len(want) {
		t.Fatalf("waits %v, want %v", *waits, want)
	}
	for i := range want {
		if (*waits)[i] != want[i] {
			t.Fatalf("waits %v, want %v (Retry-After first, then the doubling backoff up to Max)", *waits, want)
		}
	}
}

func TestAPermanentAnswerIsNotRetried(t *testing.T) {
	srv, n := answering(t, status(400))
	s, waits := sender(srv.URL, retrying)
	err := s.Send(context.Background(), []byte("body"))
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 400 {
		t.Fatalf("err = %v, want the 400 answer", err)
	}
	if se.Body != "no way" {
		t.Fatalf("error body %q, want the collector's text on one printable line", se.Body)
	}
	if n.Load() != 1 || len(*waits) != 0 {
		t.Fatalf("%d requests, waits %v: a 400 was retried", n.Load(), *waits)
	}
}

func TestRetriesStopBeforeTheElapsedBound(t *testing.T) {
	srv, n := answering(t, status(503, "Retry-After", "30"))
	s, waits := sender(srv.URL, Retry{Enabled: true, Initial: time.Millisecond, Max: time.Millisecond, MaxElapsed: 10 * time.Second})
	if err := s.Send(context.Background(), nil); err == nil {
		t.Fatal("a collector that keeps answering 503 was reported delivered")
	}
	if n.Load() != 1 || len(*waits) != 0 {
		t.Fatalf("%d requests, waits %v: a 30 s Retry-After beyond the 10 s bound was waited for", n.Load(), *waits)
	}
}

func TestRetryDisabledTriesOnce(t *testing.T) {
	srv, n := answering(t, status(503))
	s, _ := sender(srv.URL, Retry{})
	if err := s.Send(context.Background(), nil); err == nil || n.Load() != 1 {
		t.Fatalf("err %v after %d requests, want the 503 after one", err, n.Load())
	}
}

func TestTransportErrorsAreRetriedUnlessPermanent(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // connections are refused from now on
	s, waits := sender(url, Retry{Enabled: true, Initial: time.Millisecond, Max: time.Millisecond, MaxElapsed: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	s.pause = func(_ context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		if len(*waits) == 3 {
			cancel()
			return context.Canceled
		}
		return nil
	}
	if err := s.Send(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancellation that ended the retries", err)
	}
	if len(*waits) != 3 {
		t.Fatalf("waits %v: a refused connection was not retried", *waits)
	}
	*waits = nil
	s.Permanent = func(error) bool { return true }
	if err := s.Send(context.Background(), nil); err == nil || len(*waits) != 0 {
		t.Fatalf("err %v, waits %v: a permanent transport error was retried", err, *waits)
	}
}

func TestTheRequestCarriesTheBodyAndHeaders(t *testing.T) {
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		body = make([]byte, r.ContentLength)
		r.Body.Read(body)
	}))
	defer srv.Close()
	s, _ := sender(srv.URL+"/v1/traces", Retry{})
	s.Headers = map[string]string{"Authorization": "Bearer t0k"}
	if err := s.Send(context.Background(), []byte{0x0a, 0x00}); err != nil {
		t.Fatal(err)
	}
	if got.Method != http.MethodPost || got.URL.Path != "/v1/traces" || got.Header.Get("Content-Type") != "application/x-protobuf" ||
		got.Header.Get("Authorization") != "Bearer t0k" || !strings.HasPrefix(got.Header.Get("User-Agent"), "fluzo/") || string(body) != "\x0a\x00" {
		t.Fatalf("request %s %s %v body %q", got.Method, got.URL.Path, got.Header, body)
	}
}
