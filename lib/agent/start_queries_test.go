package agent

import (
	"context"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/baseline"
)

// countingTools counts the backend queries a run asks, by name.
type countingTools struct {
	Tools
	mu      sync.Mutex
	queries map[string]int
}

func (c *countingTools) Query(ctx context.Context, name string, args, out any) error {
	c.mu.Lock()
	c.queries[name]++
	c.mu.Unlock()
	return c.Tools.Query(ctx, name, args, out)
}

// A task's start reads the backend's git state once: the context's git
// status section and the workspace.state event come from the same answer
// (each git_state costs the backend three git processes, on the path to
// the first model request).
func TestTaskStartAsksTheGitStateOnce(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "a\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"done","match":{"messages":2},"respond":{"text":"done"}}]}`)
	ct := &countingTools{Tools: h.runner.Tools, queries: map[string]int{}}
	h.runner.Tools = ct
	res := h.runner.Run(context.Background(), taskStart{Request: "look", NoVerify: true})
	if res.Status != "completed" {
		t.Fatalf("result: %+v", res)
	}
	if n := ct.queries[tools.QueryGitState]; n != 1 {
		t.Fatalf("git_state asked %d times at the start of one task, want 1 (queries: %v)", n, ct.queries)
	}
	head, err := exec.Command("git", "-C", h.root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var got []core.Event
	for _, ev := range h.events {
		if ev.Type == core.EvWorkspaceState {
			got = append(got, ev)
		}
	}
	if len(got) != 1 || !strings.Contains(string(got[0].Data), strings.TrimSpace(string(head))) {
		t.Fatalf("workspace.state events %v, want one naming HEAD %s", got, head)
	}
}

// meetingReads answers a query only once every query it expects is in
// flight at the same time: a build that asks one after the other never
// gets its first answer (it fails after the guard, a deadlock guard, not
// a timing assertion).
type meetingReads struct {
	querier
	arrived chan string
	release chan struct{}
	want    int
	once    sync.Once
}

func (m *meetingReads) Query(ctx context.Context, name string, args, out any) error {
	m.arrived <- name
	select {
	case <-m.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return m.querier.Query(ctx, name, args, out)
}

func (m *meetingReads) meet(t *testing.T, ctx context.Context) {
	seen := map[string]bool{}
	for len(seen) < m.want {
		select {
		case n := <-m.arrived:
			seen[n] = true
		case <-ctx.Done():
			t.Errorf("only %v were asked together before the guard; want %d reads in flight at once", seen, m.want)
			m.once.Do(func() { close(m.release) })
			return
		}
	}
	m.once.Do(func() { close(m.release) })
}

// The initial context's two backend reads (git state, AGENTS.md) are in
// flight together, not one after the other.
func TestInitialContextAsksItsReadsAtOnce(t *testing.T) {
	dir := newRepo(t, map[string]string{"AGENTS.md": "rules", "a.txt": "a"})
	m := &meetingReads{querier: localReads(t, dir), arrived: make(chan string, 4), release: make(chan struct{}), want: 2}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go m.meet(t, ctx)
	ic, err := buildInitialContext(ctx, contextInput{Request: "r", Root: dir, Reads: m, ToolSchemas: []byte(`[]`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ic.Instructions) != 1 || ic.Workspace.Head == "" {
		t.Fatalf("context from the reads: instructions %+v, workspace %+v", ic.Instructions, ic.Workspace)
	}
}

// Reads asked ahead (readContext, as the owner does while the baseline is
// captured) are the ones the context is built from: the build asks the
// backend nothing more, and the result equals a build that reads itself.
func TestInitialContextUsesPrefetchedReads(t *testing.T) {
	dir := newRepo(t, map[string]string{"AGENTS.md": "rules", "a.txt": "a"})
	ct := &countingTools{Tools: localReads(t, dir), queries: map[string]int{}}
	ctx := context.Background()
	pre := readContext(ctx, ct)
	if _, err := pre.wait(ctx); err != nil {
		t.Fatal(err)
	}
	asked := len(ct.queries)
	in := contextInput{Request: "r", Root: dir, Reads: ct, ToolSchemas: []byte(`[]`), Prefetched: pre}
	got, err := buildInitialContext(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if n := ct.queries[tools.QueryGitState] + ct.queries[tools.QueryAgentsMD]; n != 2 || asked != 2 {
		t.Fatalf("queries %v: the build asked again", ct.queries)
	}
	in.Prefetched = nil
	fresh, err := buildInitialContext(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Receipt.Digest != fresh.Receipt.Digest {
		t.Fatal("a context from prefetched reads differs from one read now")
	}
}

// Before its first model request is sent a task commits twice: the task
// itself (session, task, attempt, grants, contract, configuration) and
// its start records (backend identity, workspace state, prompt receipt
// with its artifact link) together with the first request's reservation
// — reserved and marked dispatched before the send, as ProviderStart
// would, without a commit of its own.
func TestTaskStartCommitsTwiceBeforeTheFirstRequest(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "a\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"done","match":{"messages":2},"respond":{"text":"done"}}]}`)
	h.runner.Backend = &BackendIdentity{Kind: "local"}
	c := countCommits(h)
	res := h.runner.Run(context.Background(), taskStart{Request: "look", NoVerify: true})
	if res.Status != "completed" {
		t.Fatalf("result: %+v", res)
	}
	commits := 0
	var methods []string
	for _, call := range c.calls {
		if call.method == "ProviderEnd" {
			break
		}
		commits += int(call.cost.Commits)
		methods = append(methods, call.method)
	}
	if commits != 2 || strings.Join(methods, ",") != "StartTask,RecordStart" {
		t.Fatalf("%d commits before the first response, by %v; want 2 (StartTask, RecordStart)", commits, methods)
	}
	reqs, err := c.s.ListProviderRequests(context.Background(), res.Attempt)
	if err != nil || len(reqs) != 1 || reqs[0].State != core.SlotCompleted {
		t.Fatalf("provider requests %+v, %v; want the one request, completed", reqs, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var order []string
	for _, ev := range h.events {
		switch ev.Type {
		case core.EvToolBackendConnected, core.EvWorkspaceState, core.EvPromptReceipt:
			order = append(order, ev.Type)
		}
	}
	if want := core.EvToolBackendConnected + "," + core.EvWorkspaceState + "," + core.EvPromptReceipt; strings.Join(order, ",") != want {
		t.Fatalf("start records %v, want %s", order, want)
	}
}

// A first request reserved with the start records but never sent (the
// task is cancelled as its start commits, before its first turn) is
// settled as not sent — completed, nothing generated, usage unknown — and
// no request stays reserved or dispatched for recovery to doubt. A task
// that stops for want of a verification contract reserves nothing.
func TestFirstReservationNotSentIsSettled(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "a\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"done","optional":true,"match":{"messages":2},"respond":{"text":"done"}}]}`)
	c := countCommits(h)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.runner.Journal = &cancelAfterStart{journal: h.runner.Journal, cancel: cancel}
	res := h.runner.Run(ctx, taskStart{Request: "look", NoVerify: true})
	if res.Status != string(core.CodeCancelled) {
		t.Fatalf("result: %+v", res)
	}
	reqs, err := c.s.ListProviderRequests(context.Background(), res.Attempt)
	if err != nil || len(reqs) != 1 {
		t.Fatalf("provider requests %+v, %v; want the one reserved with the start", reqs, err)
	}
	if reqs[0].State != core.SlotCompleted || h.count(core.EvProviderResponse) != 1 {
		t.Errorf("request %s left %s, %d settled", reqs[0].ID, reqs[0].State, h.count(core.EvProviderResponse))
	}

	h = newHarness(t, map[string]string{"a.txt": "a\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"done","optional":true,"match":{"messages":2},"respond":{"text":"done"}}]}`)
	res = h.runner.Run(context.Background(), taskStart{Request: "look"})
	if res.Reason != ReasonVerificationNotConfigured || h.count(core.EvProviderRequest) != 0 || h.count(core.EvProviderResponse) != 0 {
		t.Fatalf("no contract: result %+v, provider events %d/%d; want none", res, h.count(core.EvProviderRequest), h.count(core.EvProviderResponse))
	}
}

// cancelAfterStart cancels the run once the start records have committed.
type cancelAfterStart struct {
	journal
	cancel func()
}

func (c *cancelAfterStart) RecordStart(ctx context.Context, refs Refs, data []byte, mediaType string, reserve *reservation, build func(string) []derivedEvent) (string, error) {
	defer c.cancel()
	return c.journal.RecordStart(ctx, refs, data, mediaType, reserve, build)
}

// oldBackend answers the baseline without the git state, as a backend
// that reads it separately does.
type oldBackend struct{ *countingTools }

func (o oldBackend) Query(ctx context.Context, name string, args, out any) error {
	err := o.countingTools.Query(ctx, name, args, out)
	if snap, ok := out.(*baseline.Snapshot); ok && name == tools.QueryBaseline {
		snap.Branch, snap.Status = "", nil
	}
	return err
}

// An owner's task start takes the git state from the baseline's answer
// (one git status for both), and asks it apart only from a backend that
// does not send it; either way the context reads the same state.
func TestTaskStartTakesTheGitStateFromTheBaseline(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "a\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[]}`)
	writeFiles(t, h.root, map[string]string{"a.txt": "changed\n", "new.txt": "n\n"})
	ctx := context.Background()
	read := func(q querier) *contextReads {
		t.Helper()
		base, pending, err := readStart(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer base.Close()
		reads, err := pending.wait(ctx)
		if err != nil || reads.stateErr != nil || reads.agentsErr != nil {
			t.Fatalf("reads: %v %+v", err, reads)
		}
		return reads
	}
	ct := &countingTools{Tools: h.runner.Tools, queries: map[string]int{}}
	fromBaseline := read(ct)
	if ct.queries[tools.QueryGitState] != 0 || ct.queries[tools.QueryBaseline] != 1 || ct.queries[tools.QueryAgentsMD] != 1 {
		t.Fatalf("queries %v, want one baseline and one agents_md, no git_state", ct.queries)
	}
	old := oldBackend{&countingTools{Tools: h.runner.Tools, queries: map[string]int{}}}
	asked := read(old)
	if old.queries[tools.QueryGitState] != 1 {
		t.Fatalf("queries %v: a backend whose baseline carries no git state was not asked for it", old.queries)
	}
	if !reflect.DeepEqual(fromBaseline.state, asked.state) || fromBaseline.state.Total != 3 {
		t.Fatalf("the state from the baseline %+v differs from the one asked %+v", fromBaseline.state, asked.state)
	}
}
