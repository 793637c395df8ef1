package agent

import (
	"context"
	"sync"

	"github.com/josecorral/fluzo/lib/tools"
)

// The initial context needs two backend reads, the git state and the
// AGENTS.md files; each costs the backend git processes. They are on the
// path to the first model request, and the backend answers queries
// concurrently, so they are asked at once — and, for an owner's task,
// as soon as the backend is up, while the baseline is being captured
// (the reads are of the same tree, before anything has run in it; the
// baseline's answer carries the git state, readStart).

// contextReads are the backend's answers the initial context is built
// from; each read's error is kept with it.
type contextReads struct {
	state     tools.GitState
	stateErr  error
	agents    tools.AgentsMD
	agentsErr error
}

// pendingReads is a readContext in flight.
type pendingReads struct {
	done  chan struct{}
	reads contextReads
}

// readContext starts both reads and returns at once.
func readContext(ctx context.Context, q querier) *pendingReads { return readContextWith(ctx, q, nil) }

// readContextWith is readContext whose git state, when state is set,
// comes from state instead of a git_state query.
func readContextWith(ctx context.Context, q querier, state func() (tools.GitState, error)) *pendingReads {
	p := &pendingReads{done: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if state != nil {
			p.reads.state, p.reads.stateErr = state()
			return
		}
		p.reads.stateErr = q.Query(ctx, tools.QueryGitState, nil, &p.reads.state)
	}()
	go func() {
		defer wg.Done()
		p.reads.agentsErr = q.Query(ctx, tools.QueryAgentsMD, nil, &p.reads.agents)
	}()
	go func() {
		wg.Wait()
		close(p.done)
	}()
	return p
}

// wait returns the answers once both reads have ended, or ctx's error.
func (p *pendingReads) wait(ctx context.Context) (*contextReads, error) {
	select {
	case <-p.done:
		return &p.reads, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// instructionsFrom converts the backend's AGENTS.md answer.
func instructionsFrom(got tools.AgentsMD) []Instructions {
	var found []Instructions
	for _, f := range got.Files {
		found = append(found, Instructions{Path: f.Path, Scope: f.Scope, Content: f.Content, Truncated: f.Truncated})
	}
	return found
}

// readStart captures an owner's task baseline and starts the context's
// reads beside it. The git state comes with the baseline — one git
// status, so the context and the baseline describe one instant, and two
// git processes fewer on the way to the first request — from a backend
// that sends it (tools.GitStateOf), and is asked apart from one that
// does not.
func readStart(ctx context.Context, q querier) (*workspaceBaseline, *pendingReads, error) {
	captured := make(chan struct{})
	var base *workspaceBaseline
	var baseErr error
	reads := readContextWith(ctx, q, func() (tools.GitState, error) {
		select {
		case <-captured:
		case <-ctx.Done():
			return tools.GitState{}, ctx.Err()
		}
		if baseErr != nil {
			return tools.GitState{}, baseErr
		}
		if st, ok := tools.GitStateOf(base.before); ok {
			return st, nil
		}
		var st tools.GitState
		return st, q.Query(ctx, tools.QueryGitState, nil, &st)
	})
	base, baseErr = captureBaseline(ctx, q)
	close(captured)
	return base, reads, baseErr
}
