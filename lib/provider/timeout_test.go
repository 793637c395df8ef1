package provider_test

import (
	"context"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/provider"
)

// Each phase timeout is a typed error naming its phase. The scripted
// delays are far longer than the timeouts, so the outcome does not depend
// on machine speed; nothing here asserts how long anything took.
func TestPhaseTimeouts(t *testing.T) {
	short := 150 * time.Millisecond
	cases := []struct {
		name    string
		respond string
		stream  bool
		set     func(*provider.Timeouts)
		want    provider.Class
	}{
		{"header", `{"header_delay_ms":30000,"text":"late"}`, true,
			func(to *provider.Timeouts) { to.Header = short }, provider.ClassTimeoutHeader},
		{"first output despite keep-alives", `{"first_delay_ms":30000,"keepalive_ms":20,"text":"late"}`, true,
			func(to *provider.Timeouts) { to.FirstOutput = short }, provider.ClassTimeoutFirstOutput},
		{"idle", `{"text":"a long answer that stalls in the middle","stall_after":2,"stall_ms":30000}`, true,
			func(to *provider.Timeouts) { to.Idle = short }, provider.ClassTimeoutIdle},
		{"total", `{"text":"a long answer that trickles out slowly, chunk after chunk, for a long time","chunk_delay_ms":40}`, true,
			func(to *provider.Timeouts) { to.Total = short }, provider.ClassTimeoutTotal},
		{"header without streaming", `{"header_delay_ms":30000,"text":"late"}`, false,
			func(to *provider.Timeouts) { to.Header, to.FirstOutput = short/2, short/2 }, provider.ClassTimeoutHeader},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startSim(t, oneStep(tc.respond))
			c := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 2; tc.set(&e.Timeouts) })
			resp, err := c.Chat(context.Background(), chatReq(tc.stream), nil)
			if resp != nil || provider.ClassOf(err) != tc.want {
				t.Fatalf("got class %q: %v", provider.ClassOf(err), err)
			}
			if core.ExitForError(err) != core.ExitProviderError || len(provider.AttemptsOf(err)) != 1 {
				t.Fatalf("exit %d attempts %d (timeouts are not retried)", core.ExitForError(err), len(provider.AttemptsOf(err)))
			}
		})
	}
}

// Keep-alives are not progress: before output the first-output timeout
// governs (the idle timer has not started), and after output began a
// stall filled with keep-alives still ends in the idle timeout.
func TestKeepAlivesAreNotProgress(t *testing.T) {
	s := startSim(t, oneStep(`{"first_delay_ms":30000,"keepalive_ms":20,"text":"late"}`))
	c := client(t, s.BaseURL(), func(e *provider.Endpoint) {
		e.Timeouts.Idle = 100 * time.Millisecond
		e.Timeouts.FirstOutput = 400 * time.Millisecond
	})
	if _, err := c.Chat(context.Background(), chatReq(true), nil); provider.ClassOf(err) != provider.ClassTimeoutFirstOutput {
		t.Fatalf("before output: class %q: %v", provider.ClassOf(err), err)
	}
	s = startSim(t, oneStep(`{"text":"an answer that stalls after a while","stall_after":2,"stall_ms":30000,"keepalive_ms":20}`))
	c = client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Timeouts.Idle = 150 * time.Millisecond })
	if _, err := c.Chat(context.Background(), chatReq(true), nil); provider.ClassOf(err) != provider.ClassTimeoutIdle {
		t.Fatalf("after output: class %q: %v", provider.ClassOf(err), err)
	}
}

func TestCallerDeadlineAndCancellation(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["m"],"steps":[{"id":"slow","times":2,"respond":{"header_delay_ms":30000}}]}`)
	c := client(t, s.BaseURL(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Chat(ctx, chatReq(true), nil)
	if provider.ClassOf(err) != provider.ClassTimeoutTotal {
		t.Fatalf("deadline: class %q: %v", provider.ClassOf(err), err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.Chat(ctx, chatReq(true), nil)
	if provider.ClassOf(err) != provider.ClassCancelled || core.CodeOf(err) != core.CodeCancelled {
		t.Fatalf("cancel: class %q code %q", provider.ClassOf(err), core.CodeOf(err))
	}
}
