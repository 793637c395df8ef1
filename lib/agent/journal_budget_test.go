package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// countingJournal attributes the store's durable commits and fsyncs to
// the journal method that caused them, in call order.
type countingJournal struct {
	journal
	s     *store.Store
	mu    sync.Mutex
	calls []journalCall
}

type journalCall struct {
	method string
	cost   store.DurableCounts
}

func (c *countingJournal) measure(method string, fn func()) {
	before := c.s.Durable()
	fn()
	c.mu.Lock()
	c.calls = append(c.calls, journalCall{method, c.s.Durable().Sub(before)})
	c.mu.Unlock()
}

func (c *countingJournal) StartTask(ctx context.Context, t taskStart) (r Refs, err error) {
	c.measure("StartTask", func() { r, err = c.journal.StartTask(ctx, t) })
	return
}

func (c *countingJournal) Record(ctx context.Context, refs Refs, typ string, data any) (ev core.Event, err error) {
	c.measure("Record "+typ, func() { ev, err = c.journal.Record(ctx, refs, typ, data) })
	return
}

func (c *countingJournal) OpRequested(ctx context.Context, refs Refs, call toolCall) (op string, err error) {
	c.measure("OpRequested", func() { op, err = c.journal.OpRequested(ctx, refs, call) })
	return
}

func (c *countingJournal) OpAuthorize(ctx context.Context, refs Refs, call toolCall, op string, d Decision) (id string, err error) {
	c.measure("OpAuthorize", func() { id, err = c.journal.OpAuthorize(ctx, refs, call, op, d) })
	return
}

func (c *countingJournal) OpResult(ctx context.Context, refs Refs, op string, r toolResult) (art string, err error) {
	c.measure("OpResult", func() { art, err = c.journal.OpResult(ctx, refs, op, r) })
	return
}

func (c *countingJournal) PutArtifact(ctx context.Context, refs Refs, data []byte, mediaType string) (ref string, err error) {
	c.measure("PutArtifact", func() { ref, err = c.journal.PutArtifact(ctx, refs, data, mediaType) })
	return
}

func (c *countingJournal) RecordStart(ctx context.Context, refs Refs, data []byte, mediaType string, reserve *reservation, build func(string) []derivedEvent) (ref string, err error) {
	c.measure("RecordStart", func() { ref, err = c.journal.RecordStart(ctx, refs, data, mediaType, reserve, build) })
	return
}

func (c *countingJournal) ProviderStart(ctx context.Context, refs Refs, purpose, model string) (id string, err error) {
	c.measure("ProviderStart", func() { id, err = c.journal.ProviderStart(ctx, refs, purpose, model) })
	return
}

func (c *countingJournal) ProviderEnd(ctx context.Context, refs Refs, id, state string, u usage, message any) (err error) {
	c.measure("ProviderEnd", func() { err = c.journal.ProviderEnd(ctx, refs, id, state, u, message) })
	return
}

func (c *countingJournal) ProviderEndWithNext(ctx context.Context, refs Refs, id, state string, u usage, message any) (err error) {
	c.measure("ProviderEndWithNext", func() { err = c.journal.ProviderEndWithNext(ctx, refs, id, state, u, message) })
	return
}

func (c *countingJournal) ProviderFailed(ctx context.Context, refs Refs, id, state string, cause error) (err error) {
	c.measure("ProviderFailed", func() { err = c.journal.ProviderFailed(ctx, refs, id, state, cause) })
	return
}

func (c *countingJournal) Compacted(ctx context.Context, refs Refs, cp compaction) (err error) {
	c.measure("Compacted", func() { err = c.journal.Compacted(ctx, refs, cp) })
	return
}

func (c *countingJournal) Finish(ctx context.Context, refs Refs, task core.TaskState, attempt core.AttemptState, reason string) (err error) {
	c.measure("Finish", func() { err = c.journal.Finish(ctx, refs, task, attempt, reason) })
	return
}

// countCommits wraps a harness's journal with a counting one.
func countCommits(h *harness) *countingJournal {
	sj := h.runner.Journal.(*storeJournal)
	c := &countingJournal{journal: sj, s: sj.S}
	h.runner.Journal = c
	return c
}

// The commit budget (issue 21, DESIGN §8): a tool call is exactly two
// durable commits — the intent (with the decision) before dispatch, the
// outcome (with the dispatch marker, the artifact reference and the
// events derived from it) after — and a model request shares both of its
// own: its reservation goes into the commit before it (the task's start
// records, or the previous turn's last outcome) and a response with tool
// calls settles in its first call's intent commit. Only a final text
// response commits on its own (ProviderEnd). Between the first request
// and the finish nothing else commits: a turn of one tool call is two
// commits, not four.
func TestCommitBudgetPerModelRequestAndToolCall(t *testing.T) {
	big := strings.Repeat("a line of a large file\n", 1200) // over the 16 KiB context bound
	scenario := `{"version":1,"name":"budget","models":["sim"],"steps":[
 {"id":"view","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}]}},
 {"id":"exec","match":{"tool_result":{"tool":"view"}},"respond":{"tool_calls":[{"id":"c2","name":"exec","arguments":{"argv":["false"]}},{"id":"c3","name":"view","arguments":{"path":"big.txt"}}]}},
 {"id":"big","match":{"tool_result":{"tool":"view"}},"respond":{"tool_calls":[{"id":"c4","name":"exec","arguments":{"argv":["false"]}}]}},
 {"id":"done","match":{"tool_result":{"tool":"exec"}},"respond":{"text":"done"}}]}`
	h := newHarness(t, map[string]string{"a.txt": "hello\n", "big.txt": big}, scenario, "exec:false")
	c := countCommits(h)
	before := c.s.Durable()
	res := h.runner.Run(context.Background(), taskStart{Request: "look around", NoVerify: true})
	if res.Status != "completed" || res.Turns != 4 {
		t.Fatalf("result: %+v", res)
	}
	total := c.s.Durable().Sub(before)
	var sum store.DurableCounts
	per := map[string]int{}
	// The turns span from the first request to the last request or tool
	// commit; before are the task's setup, after its verdict and finish.
	first, last := -1, -1
	for i, call := range c.calls {
		switch call.method {
		case "ProviderStart", "ProviderEnd", "ProviderEndWithNext", "OpAuthorize", "OpResult":
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	artifacts := 0
	for i, call := range c.calls {
		sum.Commits += call.cost.Commits
		sum.Fsyncs += call.cost.Fsyncs
		per[call.method]++
		switch call.method {
		case "ProviderStart", "ProviderEnd", "OpAuthorize":
			if call.cost != (store.DurableCounts{Commits: 1}) {
				t.Errorf("%s cost %+v, want exactly one commit and no other fsync", call.method, call.cost)
			}
		case "ProviderEndWithNext":
			if call.cost != (store.DurableCounts{}) {
				t.Errorf("%s cost %+v, want nothing: it joins the next commit", call.method, call.cost)
			}
		case "OpResult":
			// A result too large for the context is an artifact: its file
			// and two directories are fsynced before the one commit.
			if call.cost.Fsyncs == 3 {
				artifacts++
			}
			if call.cost.Commits != 1 || (call.cost.Fsyncs != 0 && call.cost.Fsyncs != 3) {
				t.Errorf("OpResult cost %+v, want one commit (plus an artifact's 3 fsyncs)", call.cost)
			}
		default:
			if i > first && i < last {
				t.Errorf("%s committed %+v during the turns: every turn commit must be a request's or a tool call's", call.method, call.cost)
			}
		}
	}
	if sum != total {
		t.Errorf("the journal accounts for %+v of the store's %+v: something commits outside it", sum, total)
	}
	if per["ProviderStart"] != 0 || per["RecordStart"] != 1 || per["ProviderEnd"] != 1 || per["ProviderEndWithNext"] != 3 || per["OpAuthorize"] != 4 || per["OpResult"] != 4 || artifacts != 1 {
		t.Errorf("calls %v, artifacts %d", per, artifacts)
	}
	if turns := total.Commits - int64(commitsOutsideTurns(c.calls)); turns != 1+2*4 {
		t.Errorf("%d commits in the turns; want 9: 4 tool calls of 2 (sharing every reservation and the 3 responses with tool calls) and the final text response", turns)
	}
	// Four requests, each reserved and dispatched before its send and
	// completed after.
	reqs, err := c.s.ListProviderRequests(context.Background(), res.Attempt)
	if err != nil || len(reqs) != 4 {
		t.Fatalf("provider requests %+v, %v", reqs, err)
	}
	for _, r := range reqs {
		if r.State != core.SlotCompleted {
			t.Errorf("request %s is %s", r.ID, r.State)
		}
	}
	// The derived events and the dispatch marker committed with the
	// outcomes: two command results, one large-result artifact.
	if h.count(core.EvCommandResult) != 2 || h.count(core.EvOperationDispatched) != 4 || h.count(core.EvOperationResult) != 4 {
		t.Errorf("command.result %d, dispatched %d, results %d", h.count(core.EvCommandResult), h.count(core.EvOperationDispatched), h.count(core.EvOperationResult))
	}
	t.Logf("per call: %v; session total %+v over %d turns", per, total, res.Turns)
}

// commitsOutsideTurns counts the commits of journal calls that are not a
// request's or a tool call's (the task's setup and finish).
func commitsOutsideTurns(calls []journalCall) int {
	n := 0
	for _, call := range calls {
		switch call.method {
		case "ProviderStart", "ProviderEnd", "ProviderEndWithNext", "OpAuthorize", "OpResult":
		default:
			n += int(call.cost.Commits)
		}
	}
	return n
}

// The bench probe (FLUZO_BENCH_TURNS) writes one line per turn whose
// commit counts match the budget; its times are reported, never checked.
func TestTurnProbeWritesOneLinePerTurnWithItsCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "turns.jsonl")
	t.Setenv("FLUZO_BENCH_TURNS", path)
	startPhases.mu.Lock()
	startPhases.at = nil // phases are the process's: forget other tests'
	startPhases.mu.Unlock()
	h := newHarness(t, map[string]string{"a.txt": "hello\n"}, `{"version":1,"name":"probe","models":["sim"],"steps":[
 {"id":"view","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}},{"id":"c2","name":"view","arguments":{"path":"a.txt"}}]}},
 {"id":"done","match":{"tool_result":{"tool":"view"}},"respond":{"text":"done"}}]}`)
	if res := h.runner.Run(context.Background(), taskStart{Request: "look", NoVerify: true}); res.Status != "completed" {
		t.Fatalf("result: %+v", res)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var turns []turnSample
	for _, l := range lines[:len(lines)-1] {
		var s turnSample
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatal(err)
		}
		turns = append(turns, s)
	}
	// The first request was reserved with the task's start records, the
	// second with the first turn's last outcome; the first response
	// settled with the first call's intent, the final one on its own.
	want := []turnSample{{Turn: 1, Commits: 4, ToolCalls: 2, ToolCommits: 4}, {Turn: 2, Commits: 1}}
	if len(turns) != len(want) {
		t.Fatalf("turn lines: %s", b)
	}
	for i, s := range turns {
		got := turnSample{Turn: s.Turn, Commits: s.Commits, Fsyncs: s.Fsyncs, ToolCalls: s.ToolCalls, ToolCommits: s.ToolCommits, ToolFsyncs: s.ToolFsyncs}
		if got != want[i] || s.Allocs == 0 {
			t.Errorf("turn %d: %+v, want the counts of %+v", i+1, s, want[i])
		}
	}
	var proc struct {
		Process   bool        `json:"process"`
		FirstSend int64       `json:"first_request_unix_ns"`
		Phases    []phaseMark `json:"phases"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &proc); err != nil || !proc.Process || proc.FirstSend == 0 {
		t.Errorf("no process line with the first request's time: %s", lines[len(lines)-1])
	}
	// The runner's own phases (the owner's come before them in a real
	// run), in order, none after the first send.
	var names []string
	for i, m := range proc.Phases {
		names = append(names, m.Phase)
		if m.UnixNS > proc.FirstSend || (i > 0 && m.UnixNS < proc.Phases[i-1].UnixNS) {
			t.Errorf("phase %s at %d: out of order or after the first send (%d)", m.Phase, m.UnixNS, proc.FirstSend)
		}
	}
	if got := strings.Join(names, ","); got != "task_recorded,context_built,start_recorded" {
		t.Errorf("phases %s, want task_recorded,context_built,start_recorded", got)
	}
}

// A request reserved with a turn's last outcome that is never sent — here
// the task is cancelled right after that commit — is settled before the
// attempt's outcome: completed with nothing generated, its event saying
// it was not sent, never left dispatched (which recovery would have to
// call uncertain).
func TestReservedRequestNotSentIsSettled(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "hello\n"}, `{"version":1,"name":"cancel","models":["sim"],"steps":[
 {"id":"view","match":{"messages":2},"respond":{"tool_calls":[{"id":"c1","name":"view","arguments":{"path":"a.txt"}}]}},
 {"id":"done","match":{"tool_result":{"tool":"view"}},"respond":{"text":"done"}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sj := h.runner.Journal.(*storeJournal)
	emit := sj.Emit
	var responses []core.Event
	sj.Emit = func(ev core.Event) {
		emit(ev)
		switch ev.Type {
		case core.EvOperationResult:
			cancel() // after the commit that reserved the next request
		case core.EvProviderResponse:
			responses = append(responses, ev)
		}
	}
	res := h.runner.Run(ctx, taskStart{Request: "look", NoVerify: true})
	if res.Status != string(core.CodeCancelled) {
		t.Fatalf("result: %+v", res)
	}
	reqs, err := sj.S.ListProviderRequests(context.Background(), res.Attempt)
	if err != nil || len(reqs) != 2 {
		t.Fatalf("provider requests %+v, %v", reqs, err)
	}
	for _, r := range reqs {
		if r.State != core.SlotCompleted {
			t.Errorf("request %s is %s, want completed", r.ID, r.State)
		}
	}
	if len(responses) != 2 || !strings.Contains(string(responses[1].Data), "not sent") || !strings.Contains(string(responses[1].Data), `"outcome":"failed"`) {
		t.Fatalf("responses: %v", responses)
	}
	if reqs[1].InputTokens != nil || reqs[1].OutputTokens != nil {
		t.Errorf("the unsent request's usage is %v/%v, want unknown", reqs[1].InputTokens, reqs[1].OutputTokens)
	}
}
