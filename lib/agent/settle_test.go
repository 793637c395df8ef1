package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"go.opentelemetry.io/otel/trace"
)

// commitOf records, for every emitted event, the store's commit count
// after the commit that carried it: two events with the same number were
// written by one transaction.
type commitOf struct {
	types   []string
	commits []int64
}

func watchCommits(h *harness) *commitOf {
	sj := h.runner.Journal.(*storeJournal)
	c := &commitOf{}
	emit := sj.Emit
	sj.Emit = func(ev core.Event) {
		emit(ev)
		c.types = append(c.types, ev.Type)
		c.commits = append(c.commits, sj.S.Durable().Commits)
	}
	return c
}

// A turn's response with tool calls is settled (completed, with its
// usage and message) in the commit of its first call's decision and
// intent — before the dispatch, never after it, and not in a commit of
// its own.
func TestResponseWithToolCallsSettlesWithTheFirstIntent(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "hello\n"}, `{"version":1,"name":"settle","models":["sim"],"steps":[
 {"id":"two","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}},{"id":"c2","name":"view","arguments":{"path":"a.txt"}}]}},
 {"id":"done","match":{"tool_result":{"tool":"view"}},"respond":{"text":"done"}}]}`)
	c := watchCommits(h)
	res := h.runner.Run(context.Background(), taskStart{Request: "look", NoVerify: true})
	if res.Status != "completed" {
		t.Fatalf("result: %+v", res)
	}
	var responses, intents, dispatched []int
	for i, typ := range c.types {
		switch typ {
		case core.EvProviderResponse:
			responses = append(responses, i)
		case core.EvOperationIntent:
			intents = append(intents, i)
		case core.EvOperationDispatched:
			dispatched = append(dispatched, i)
		}
	}
	if len(responses) != 2 || len(intents) != 2 || len(dispatched) != 2 {
		t.Fatalf("events %v", c.types)
	}
	first := responses[0]
	if c.types[first+1] != core.EvMessage || c.commits[first+1] != c.commits[first] {
		t.Errorf("the response's message is not in its commit: %v", c.types)
	}
	if c.commits[first] != c.commits[intents[0]] {
		t.Errorf("the response committed in commit %d, the first intent in %d: want one commit", c.commits[first], c.commits[intents[0]])
	}
	if first > intents[0] || intents[0] > dispatched[0] {
		t.Errorf("order: response %d, intent %d, dispatched %d", first, intents[0], dispatched[0])
	}
	// The second call's intent is its own commit; the final text
	// response, which verification or the finish may follow, is too.
	if c.commits[intents[1]] == c.commits[intents[0]] {
		t.Errorf("the second intent shares the first's commit")
	}
	last := responses[1]
	for i, typ := range c.types {
		if i != last && i != last+1 && c.commits[i] == c.commits[last] {
			t.Errorf("the final response shares its commit with %s", typ)
		}
	}
}

// Whatever the first commit after such a response is — the call asks
// and nobody can answer, the tool-call budget ends the task, the task
// was cancelled as the response arrived — the response is settled in
// it: the request is completed with its usage, its message recorded once,
// never left dispatched for recovery to call uncertain.
func TestAHeldResponseSettlesWithWhateverCommitsNext(t *testing.T) {
	cases := []struct {
		name, scenario, status string
		setup                  func(h *harness, cancel context.CancelFunc)
	}{
		{"asks headless", `{"version":1,"name":"ask","models":["sim"],"steps":[
 {"id":"exec","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"exec","arguments":{"argv":["false"]}}],"usage":{"input":7,"output":3}}}]}`,
			"permission_required", nil},
		{"tool budget", `{"version":1,"name":"budget","models":["sim"],"steps":[
 {"id":"view","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}],"usage":{"input":7,"output":3}}},
 {"id":"again","match":{"tool_result":{"tool":"view"}},"respond":{"tool_calls":[{"id":"c2","name":"view","arguments":{"path":"a.txt"}}],"usage":{"input":7,"output":3}}}]}`,
			"budget_exhausted", func(h *harness, _ context.CancelFunc) { h.runner.Budgets.MaxToolCalls = 1 }},
		{"cancelled", `{"version":1,"name":"cancel","models":["sim"],"steps":[
 {"id":"view","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}],"usage":{"input":7,"output":3}}}]}`,
			"cancelled", cancelAfterResponse},
		{"cancelled, text", `{"version":1,"name":"cancel-text","models":["sim"],"steps":[
 {"id":"done","match":{"messages":2},"respond":{"text":"done","usage":{"input":7,"output":3}}}]}`,
			"cancelled", cancelAfterResponse},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, map[string]string{"a.txt": "hello\n"}, tc.scenario)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.setup != nil {
				tc.setup(h, cancel)
			}
			res := h.runner.Run(ctx, taskStart{Request: "look", NoVerify: true})
			if res.Status != tc.status {
				t.Fatalf("result: %+v", res)
			}
			sj := h.runner.Journal.(*storeJournal)
			reqs, err := sj.S.ListProviderRequests(context.Background(), res.Attempt)
			if err != nil || len(reqs) == 0 {
				t.Fatalf("provider requests %+v, %v", reqs, err)
			}
			for _, r := range reqs {
				if r.State != core.SlotCompleted || r.InputTokens == nil || *r.InputTokens != 7 {
					t.Errorf("request %s is %s with input %v, want completed with its usage", r.ID, r.State, r.InputTokens)
				}
			}
			if got := h.count(core.EvMessage); got != len(reqs) {
				t.Errorf("%d message events for %d responses", got, len(reqs))
			}
			if sj.takeHeld() != nil {
				t.Error("a settlement is still held after the run")
			}
		})
	}
}

// A held settlement whose transaction fails stays held and commits with
// the next one; a second settlement while one is held is refused rather
// than dropping the first.
func TestAHeldSettlementSurvivesAFailedTransaction(t *testing.T) {
	h, sj, refs, id := startedRequest(t)
	ctx := context.Background()
	in, out := int64(5), int64(2)
	if err := sj.ProviderEndWithNext(ctx, refs, id, "completed", usage{Input: &in, Output: &out}, map[string]any{"role": "assistant"}); err != nil {
		t.Fatal(err)
	}
	if err := sj.ProviderEndWithNext(ctx, refs, id, "completed", usage{}, map[string]any{}); err == nil {
		t.Error("a second held settlement was accepted")
	}
	boom := errors.New("refused")
	if err := sj.write(ctx, refs, func(*store.Tx, func(core.Event, error) error) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("write: %v", err)
	}
	if r := requestState(t, sj, refs, id); r != core.SlotDispatched {
		t.Fatalf("after the failed transaction the request is %s", r)
	}
	if _, err := sj.Record(ctx, refs, core.EvTaskState, map[string]any{"probe": true}); err != nil {
		t.Fatal(err)
	}
	if r := requestState(t, sj, refs, id); r != core.SlotCompleted {
		t.Fatalf("after the next commit the request is %s", r)
	}
	if h.count(core.EvMessage) != 1 {
		t.Errorf("%d message events", h.count(core.EvMessage))
	}
}

func requestState(t *testing.T, sj *storeJournal, refs Refs, id string) core.SlotState {
	t.Helper()
	reqs, err := sj.S.ListProviderRequests(context.Background(), refs.Attempt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		if r.ID == id {
			return r.State
		}
	}
	t.Fatalf("no request %s", id)
	return ""
}

// cancelAfterResponse cancels the task the moment the model's whole
// response is in hand, before anything records it.
func cancelAfterResponse(h *harness, cancel context.CancelFunc) {
	h.runner.Model = cancellingModel{h.runner.Model, cancel}
}

type cancellingModel struct {
	model
	cancel context.CancelFunc
}

func (m cancellingModel) Complete(ctx context.Context, req modelRequest, live func(liveDelta)) (modelResponse, error) {
	resp, err := m.model.Complete(ctx, req, live)
	m.cancel()
	return resp, err
}

// A held settlement's events keep the span that was current when it was
// held (the request's), not the span of the commit that writes them.
func TestAHeldSettlementKeepsItsSpan(t *testing.T) {
	h, sj, refs, id := startedRequest(t)
	ctx := context.Background()
	withSpan := func(span byte) context.Context {
		sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{span}, TraceFlags: trace.FlagsSampled})
		return trace.ContextWithSpanContext(ctx, sc)
	}
	if err := sj.ProviderEndWithNext(withSpan(0xaa), refs, id, "completed", usage{}, map[string]any{"role": "assistant"}); err != nil {
		t.Fatal(err)
	}
	if _, err := sj.Record(withSpan(0xbb), refs, core.EvTaskState, map[string]any{"probe": true}); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	spans := map[string]string{}
	for _, ev := range h.events {
		spans[ev.Type] = ev.Span
	}
	if want := (trace.SpanID{0xaa}).String(); spans[core.EvProviderResponse] != want || spans[core.EvMessage] != want {
		t.Errorf("the settlement's events carry spans %q/%q, want %s", spans[core.EvProviderResponse], spans[core.EvMessage], want)
	}
	if want := (trace.SpanID{0xbb}).String(); spans[core.EvTaskState] != want {
		t.Errorf("the next commit's own event carries span %q, want %s", spans[core.EvTaskState], want)
	}
}

// startedRequest is a task with one provider request reserved and
// dispatched, straight through the store journal.
func startedRequest(t *testing.T) (*harness, *storeJournal, Refs, string) {
	t.Helper()
	h := newHarness(t, map[string]string{"a.txt": "hello\n"}, `{"version":1,"name":"none","models":["sim"],"steps":[]}`)
	sj := h.runner.Journal.(*storeJournal)
	ctx := context.Background()
	refs, err := sj.StartTask(ctx, taskStart{Request: "look", NoVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	id, err := sj.ProviderStart(ctx, refs, purposeTurn, "sim")
	if err != nil {
		t.Fatal(err)
	}
	return h, sj, refs, id
}
