package sim

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Overlapping requests are counted per model: three requests held open
// by the server overlap; the test waits for the count, then lets go.
func TestMaxConcurrentPerModel(t *testing.T) {
	s, _ := start(t, `{"version":1,"models":["big","small"],"steps":[
	 {"id":"held","times":3,"match":{"model":"big"},"respond":{"header_delay_ms":60000,"text":"x"}},
	 {"id":"other","times":2,"match":{"model":"small"},"respond":{"text":"y"}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.BaseURL()+"/chat/completions",
				strings.NewReader(`{"model":"big","messages":[{"role":"user","content":"hi"}]}`))
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	deadline := time.Now().Add(20 * time.Second)
	for s.Verify().MaxConcurrent["big"] < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	// Two requests one after the other never overlap: the count must go
	// down again when a request ends.
	post(t, s.BaseURL()+"/chat/completions", `{"model":"small","messages":[{"role":"user","content":"hi"}]}`)
	post(t, s.BaseURL()+"/chat/completions", `{"model":"small","messages":[{"role":"user","content":"hi"}]}`)
	v := s.Verify()
	if !v.OK || v.MaxConcurrent["big"] != 3 || v.MaxConcurrent["small"] != 1 {
		t.Fatalf("verdict %+v", v)
	}
}

// A client that follows redirects reaches the target listener, which
// counts the hit, its body bytes and its credentials, and fails the run.
func TestRedirectTargetCountsFollowers(t *testing.T) {
	s, _ := start(t, `{"version":1,"models":["m"],"steps":[{"id":"r","respond":{"redirect":{"status":307,"location":"{target}/v1/chat/completions"}}}]}`)
	req, _ := http.NewRequest(http.MethodPost, s.BaseURL()+"/chat/completions", strings.NewReader(`{"model":"m","messages":[]}`))
	req.Header.Set("Authorization", "Bearer sk-followed")
	// A careless client: the standard library follows 307 with the body.
	// (It drops Authorization across hosts, so add it back as some SDKs do.)
	careless := &http.Client{CheckRedirect: func(r *http.Request, via []*http.Request) error {
		r.Header.Set("Authorization", via[0].Header.Get("Authorization"))
		return nil
	}}
	resp, err := careless.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	v := s.Verify()
	if v.OK || v.RedirectTarget.Hits != 1 || v.RedirectTarget.Bytes != int64(len(`{"model":"m","messages":[]}`)) || v.RedirectTarget.Credentials != 1 {
		t.Fatalf("verdict %+v", v)
	}
}
