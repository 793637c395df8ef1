package provider_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/provider"
)

// Every redirect status with every kind of Location is blocked: one
// request at the simulator, zero requests and zero bytes at the target,
// and nothing secret in the error.
func TestRedirectsAreNeverFollowed(t *testing.T) {
	locations := map[string]string{
		"relative":        "/v1/elsewhere",
		"same-origin":     "{self}/v1/chat/completions",
		"cross-origin":    "{target}/v1/chat/completions",
		"secret-bearing":  "http://admin:hunter2@{target_host}/v1/chat/completions?api_key=sk-leak#frag",
		"malformed":       "http://[::1%zz/v1",
		"scheme-relative": "//{target_host}/v1/chat/completions",
	}
	for _, status := range []int{301, 302, 303, 307, 308} {
		for kind, loc := range locations {
			for _, stream := range []bool{true, false} {
				t.Run(fmt.Sprintf("%d/%s/stream=%v", status, kind, stream), func(t *testing.T) {
					s := startSim(t, oneStep(fmt.Sprintf(`{"redirect":{"status":%d,"location":%q}}`, status, loc)))
					c := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 2 })
					resp, err := c.Chat(context.Background(), chatReq(stream), nil)
					if resp != nil || provider.ClassOf(err) != provider.ClassRedirectBlocked {
						t.Fatalf("got %v, class %q", err, provider.ClassOf(err))
					}
					if core.ExitForError(err) != core.ExitProviderError || provider.StatusOf(err) != status {
						t.Fatalf("exit %d status %d", core.ExitForError(err), provider.StatusOf(err))
					}
					fe := core.AsError(err)
					text := fmt.Sprintf("%s %s %v", fe.Message, fe.Hint, fe.Details)
					for _, secret := range []string{"hunter2", "sk-leak", "admin", "frag", "sk-secret-key", "/v1/"} {
						if strings.Contains(text, secret) {
							t.Fatalf("error leaks %q: %s", secret, text)
						}
					}
					v := mustVerify(t, s)
					if v.Requests != 1 || v.RedirectTarget.Hits != 0 || v.RedirectTarget.Bytes != 0 || v.RedirectTarget.Credentials != 0 {
						t.Fatalf("verdict %+v", v)
					}
					if n := len(provider.AttemptsOf(err)); n != 1 {
						t.Fatalf("a redirect must not be retried, got %d attempts", n)
					}
				})
			}
		}
	}
}

func TestSanitizeLocation(t *testing.T) {
	for loc, want := range map[string]string{
		"":                                "missing",
		"/v1/x?token=1":                   "relative (same origin)",
		"http://u:p@evil.example/x?k=v#f": "http://evil.example (cross-origin)",
		"http://127.0.0.1:9/v1/chat":      "http://127.0.0.1:9 (same origin)",
		"http://[::1%zz":                  "unparseable",
	} {
		base, _ := urlParse("http://127.0.0.1:9/v1")
		if got := provider.SanitizeLocation(base, loc); got != want {
			t.Errorf("%q: got %q want %q", loc, got, want)
		}
	}
}
