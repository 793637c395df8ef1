package agent

import (
	"time"

	"github.com/josecorral/fluzo/lib/admit"
)

func (t *activeTask) setBudget(b *admit.Budget) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.budget = b
}

// liveBudget is the running attempt's budget when task is the running one.
func (t *activeTask) liveBudget(task string) *admit.Budget {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.refs.Task == "" || t.refs.Task != task {
		return nil
	}
	return t.budget
}

// budgetMeters is the live budget as the diagnose answer carries it:
// consumption (active time excludes waits on the user: the budget's clock
// is paused then), the limits, and the tokens reserved for requests in
// flight. Nil when the task is not running: the stored records then say
// what is known.
func (p *Port) budgetMeters(task string) map[string]any {
	b := p.Owner.active.liveBudget(task)
	if b == nil {
		return nil
	}
	u, l := b.Usage(), b.Limits()
	// Turns are counted and limited by the loop's step limiter, not this
	// budget (its turn count is only what a resume carried forward, its
	// limit "unlimited"), so they are left out: the diagnosis counts the
	// requests, the settings carry max_turns. A budget that is not set is
	// null, not 2^60.
	return map[string]any{"live": true,
		"used": map[string]any{"turns": nil, "active_seconds": u.Active.Round(time.Second).Seconds(), "tool_calls": u.ToolCalls,
			"total_tokens": u.Tokens, "tokens_estimated_requests": u.TokensEstimated, "reserved_tokens": b.Reserved()},
		"limits": map[string]any{"turns": nil, "active_seconds": activeLimit(l.Active), "tool_calls": orNone(l.ToolCalls), "total_tokens": orNone(l.Tokens)}}
}

// orNone is a budget's limit, or nil when it is not set (unlimited).
func orNone(n int64) any {
	if n >= unlimited {
		return nil
	}
	return n
}

func activeLimit(d time.Duration) any {
	if int64(d) >= unlimited {
		return nil
	}
	return d.Seconds()
}
