package agent

import (
	"context"
	"errors"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/observe"
	"github.com/josecorral/fluzo/lib/store"
)

// The port's diagnostics queries answer from lib/observe, the library
// fluzo-observe prints, so a front end and the CLI read one diagnosis.

// diagnose answers a task's diagnosis as the observe.diag record that
// fluzo-observe diag --json prints.
func (p *Port) diagnose(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task  string `json:"task"`
		Spans bool   `json:"spans,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Task == "" {
		return nil, missingTask("diagnose")
	}
	// The diagnosis counts the archive's spans and logs: what this owner
	// recorded is written first (the archive batches its writes).
	fctx, cancel := context.WithTimeout(ctx, archiveFlushTimeout)
	p.Owner.Telemetry.runtime().FlushArchive(fctx)
	cancel()
	d, err := observe.Diagnose(ctx, p.Owner.Store, a.Task, observe.DiagnoseOptions{Spans: a.Spans})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"diagnosis": observe.NewDiagRecord(&d)}
	if b := p.budgetMeters(a.Task); b != nil {
		out["live_budget"] = b
	}
	return out, nil
}

// archiveFlushTimeout bounds the archive flush before a diagnosis (local
// files only; a full disk must not hang the port).
const archiveFlushTimeout = 2 * time.Second

// errPageFull stops a replay once a page holds one entry past its limit.
var errPageFull = errors.New("replay page full")

// replay answers one bounded page of a task's timeline: the entries whose
// seq is above after, in commit order, with gaps reported as entries.
func (p *Port) replay(ctx context.Context, raw []byte) (any, error) {
	var a struct {
		core.Command
		Task  string `json:"task"`
		After int64  `json:"after,omitempty"`
		Limit int    `json:"limit,omitempty"`
	}
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if a.Task == "" {
		return nil, missingTask("replay")
	}
	if err := checkPaging(a.Limit, &a.After); err != nil {
		return nil, err
	}
	task, err := p.Owner.Store.GetTask(ctx, a.Task)
	if err != nil {
		return nil, err
	}
	limit := replayLimit(a.Limit)
	entries := []observe.Entry{}
	more := false
	err = observe.ReplayAfter(ctx, p.Owner.Store, task, a.After, func(e observe.Entry) error {
		if e.Seq <= a.After {
			return nil
		}
		if len(entries) == limit {
			more = true
			return errPageFull
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil && !errors.Is(err, errPageFull) {
		return nil, err
	}
	next := a.After
	if len(entries) > 0 {
		next = entries[len(entries)-1].Seq
	}
	return map[string]any{"task": a.Task, "entries": entries, "next": next, "more": more}, nil
}

// replayLimit bounds a replay page as the store bounds an events page.
func replayLimit(limit int) int {
	if limit == 0 {
		return store.DefaultPage
	}
	return min(limit, store.MaxPage)
}

func missingTask(cmd string) error {
	return core.Errorf(core.CodeInvalidRequest, "%s needs a task", cmd).WithHint(`send "task":"tsk_..."`).With("field", "task")
}
