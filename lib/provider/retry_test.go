package provider_test

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/provider"
)

func TestRateLimitAndCapacityAreOneRequest(t *testing.T) {
	for name, respond := range map[string]string{
		"429":            `{"status":429,"retry_after":"1"}`,
		"503 overloaded": `{"status":503,"body":"{\"error\":{\"message\":\"server overloaded, no slot available\"}}"}`,
		"402 quota":      `{"status":402}`,
		"500 quota":      `{"status":500,"body":"{\"error\":{\"type\":\"insufficient_quota\",\"message\":\"quota exceeded\"}}"}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := startSim(t, oneStep(respond))
			rec := &sleeps{}
			c := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 3; e.Sleep = rec.sleep })
			_, err := c.Chat(context.Background(), chatReq(true), nil)
			cl := provider.ClassOf(err)
			if cl != provider.ClassRateLimited && cl != provider.ClassCapacityRejected {
				t.Fatalf("class %q: %v", cl, err)
			}
			if core.ExitForError(err) != core.ExitProviderError {
				t.Fatalf("exit %d", core.ExitForError(err))
			}
			v := mustVerify(t, s)
			if v.Requests != 1 || len(rec.waits) != 0 || len(provider.AttemptsOf(err)) != 1 {
				t.Fatalf("requests %d waits %v attempts %v", v.Requests, rec.waits, provider.AttemptsOf(err))
			}
		})
	}
}

func TestTransientFailureRetriesWithBackoff(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["m"],"steps":[
	 {"id":"fail","times":2,"respond":{"status":500}},
	 {"id":"ok","respond":{"text":"done"}}]}`)
	rec := &sleeps{}
	c := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 2; e.Sleep = rec.sleep })
	resp, err := c.Chat(context.Background(), chatReq(true), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "done" || len(resp.Attempts) != 3 {
		t.Fatalf("content %q attempts %+v", resp.Content, resp.Attempts)
	}
	if len(rec.waits) != 2 || rec.waits[0] != time.Second || rec.waits[1] != 2*time.Second {
		t.Fatalf("backoff %v, want [1s 2s]", rec.waits)
	}
	a := resp.Attempts
	if a[0].Status != 500 || a[0].Class != provider.ClassTransient || a[1].Backoff != time.Second || a[2].Backoff != 2*time.Second || a[2].Class != "" {
		t.Fatalf("attempt records %+v", a)
	}
	mustVerify(t, s)
}

func TestTransientRetriesAreBounded(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["m"],"steps":[{"id":"fail","times":2,"respond":{"status":502}}]}`)
	c := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 1 })
	_, err := c.Chat(context.Background(), chatReq(false), nil)
	if provider.ClassOf(err) != provider.ClassTransient || len(provider.AttemptsOf(err)) != 2 {
		t.Fatalf("err %v attempts %d", err, len(provider.AttemptsOf(err)))
	}
	if v := mustVerify(t, s); v.Requests != 2 {
		t.Fatalf("requests %d", v.Requests)
	}
}

func TestNoRetryWhenBackoffExceedsBudget(t *testing.T) {
	s := startSim(t, oneStep(`{"status":500}`))
	c := client(t, s.BaseURL(), func(e *provider.Endpoint) {
		e.Retries = 3
		e.Timeouts.Total = 500 * time.Millisecond // less than the 1 s backoff
	})
	_, err := c.Chat(context.Background(), chatReq(true), nil)
	if provider.ClassOf(err) != provider.ClassTransient || !strings.Contains(err.Error(), "no retry fits") {
		t.Fatalf("err %v", err)
	}
	if v := mustVerify(t, s); v.Requests != 1 {
		t.Fatalf("requests %d", v.Requests)
	}
}

func TestAuthenticationAndInvalidRequestAreNotRetried(t *testing.T) {
	for status, class := range map[int]provider.Class{401: provider.ClassAuthentication, 403: provider.ClassAuthentication, 400: provider.ClassInvalidRequest, 404: provider.ClassInvalidRequest} {
		s := startSim(t, oneStep(`{"status":`+strconv.Itoa(status)+`}`))
		c := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 3 })
		_, err := c.Chat(context.Background(), chatReq(true), nil)
		if provider.ClassOf(err) != class || len(provider.AttemptsOf(err)) != 1 {
			t.Fatalf("%d: class %q attempts %d", status, provider.ClassOf(err), len(provider.AttemptsOf(err)))
		}
		if strings.Contains(err.Error(), "sk-secret-key") {
			t.Fatalf("credential leaked: %v", err)
		}
	}
}

// A stream cut after partial tool-call fragments returns nothing
// executable; a retry is a new attempt whose calls are not duplicated.
func TestDisconnectAfterPartialToolCall(t *testing.T) {
	cut := `{"tool_calls":[{"id":"c1","name":"exec","arguments":{"cmd":"rm -rf build"}}],"fragment":{"size":4},"fault":"disconnect","fault_after":4}`
	t.Run("no retry", func(t *testing.T) {
		s := startSim(t, oneStep(cut))
		var live []provider.Delta
		resp, err := client(t, s.BaseURL(), nil).Chat(context.Background(), chatReq(true), func(d provider.Delta) { live = append(live, d) })
		if resp != nil || provider.ClassOf(err) != provider.ClassTransient {
			t.Fatalf("resp %+v err %v", resp, err)
		}
		if len(live) == 0 || live[0].Kind != provider.DeltaToolCall {
			t.Fatalf("the fragments should have streamed live first: %+v", live)
		}
		if a := provider.AttemptsOf(err); len(a) != 1 || !a[0].Output {
			t.Fatalf("attempts %+v", a)
		}
		mustVerify(t, s)
	})
	t.Run("retried", func(t *testing.T) {
		s := startSim(t, `{"version":1,"models":["m"],"steps":[{"id":"cut","respond":`+cut+`},
		 {"id":"whole","respond":{"tool_calls":[{"id":"c2","name":"exec","arguments":{"cmd":"cargo test"}}]}}]}`)
		var restarts int
		resp, err := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 1 }).Chat(context.Background(), chatReq(true), func(d provider.Delta) {
			if d.Kind == provider.DeltaRestart {
				restarts++
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "c2" || string(resp.ToolCalls[0].Arguments) != `{"cmd":"cargo test"}` {
			t.Fatalf("tool calls %+v", resp.ToolCalls)
		}
		if restarts != 1 || len(resp.Attempts) != 2 || !resp.Attempts[0].Output {
			t.Fatalf("restarts %d attempts %+v", restarts, resp.Attempts)
		}
		mustVerify(t, s)
	})
}

func TestNonStreamedDisconnectIsTransient(t *testing.T) {
	s := startSim(t, oneStep(`{"text":"a complete answer that is cut in half","fault":"disconnect"}`))
	_, err := client(t, s.BaseURL(), nil).Chat(context.Background(), chatReq(false), nil)
	if provider.ClassOf(err) != provider.ClassTransient {
		t.Fatalf("err %v", err)
	}
}

// BeforeRetry lets the runtime re-enter admission before each retry, and
// the credential is resolved at every dispatch.
func TestRetryHookAndLateCredential(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["m"],"steps":[{"id":"fail","times":2,"respond":{"status":503}},{"id":"ok","respond":{"text":"done"}}]}`)
	var hooks []int
	resolved := 0
	c := client(t, s.BaseURL(), func(e *provider.Endpoint) {
		e.Retries = 2
		e.BeforeRetry = func(_ context.Context, next int) error { hooks = append(hooks, next); return nil }
		e.ResolveKey = func() (provider.Secret, error) { resolved++; return "sk-late", nil }
	})
	if _, err := c.Chat(context.Background(), chatReq(true), nil); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 2 || hooks[0] != 2 || hooks[1] != 3 || resolved != 3 {
		t.Fatalf("hooks %v resolved %d", hooks, resolved)
	}
	s = startSim(t, `{"version":1,"models":["m"],"steps":[{"id":"fail","respond":{"status":503}}]}`)
	refuse := core.Errorf(core.CodeCapacityExhausted, "no slot")
	c = client(t, s.BaseURL(), func(e *provider.Endpoint) {
		e.Retries = 2
		e.BeforeRetry = func(context.Context, int) error { return refuse }
	})
	_, err := c.Chat(context.Background(), chatReq(true), nil)
	if core.CodeOf(err) != core.CodeCapacityExhausted || len(provider.AttemptsOf(err)) != 1 {
		t.Fatalf("err %v attempts %d", err, len(provider.AttemptsOf(err)))
	}
	if v := mustVerify(t, s); v.Requests != 1 {
		t.Fatalf("requests %d", v.Requests)
	}
}

// An unavailable server is a transient failure, retried within bounds.
func TestUnavailableServerIsTransient(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens here now
	rec := &sleeps{}
	c := client(t, "http://"+addr+"/v1", func(e *provider.Endpoint) { e.Retries = 1; e.Sleep = rec.sleep })
	_, err = c.Chat(context.Background(), chatReq(true), nil)
	if provider.ClassOf(err) != provider.ClassTransient || len(provider.AttemptsOf(err)) != 2 || len(rec.waits) != 1 {
		t.Fatalf("err %v attempts %d waits %v", err, len(provider.AttemptsOf(err)), rec.waits)
	}
	if a := provider.AttemptsOf(err)[0]; a.Status != 0 || a.Output {
		t.Fatalf("attempt %+v", a)
	}
}

// A connection cut before any output is retried; nothing was streamed, so
// no restart is announced.
func TestCutBeforeOutputIsRetriedSilently(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["m"],"steps":[{"id":"cut","respond":{"text":"x","fault":"disconnect","fault_after":1}},{"id":"ok","respond":{"text":"fine"}}]}`)
	var kinds []provider.DeltaKind
	resp, err := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 1 }).Chat(context.Background(), chatReq(true), func(d provider.Delta) { kinds = append(kinds, d.Kind) })
	if err != nil || resp.Content != "fine" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if len(kinds) != 1 || kinds[0] != provider.DeltaContent || resp.Attempts[0].Output {
		t.Fatalf("deltas %v attempts %+v", kinds, resp.Attempts)
	}
	mustVerify(t, s)
}
