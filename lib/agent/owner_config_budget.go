package agent

import "github.com/josecorral/fluzo/lib/config"

// Task budgets changed from the settings while a task runs are
// safe-boundary settings (lib/config's ApplySafeBoundary): an apply that
// also names the current task (PRD §26.2's additional explicit action)
// hands them to the task's inbox and the loop takes them before its
// next turn, when every tool call of the previous one has its result.
// Consumption never resets: a limit at or below what was used ends the
// task through the ordinary exhaustion path.

// budgetKeys are the settings a running task's budgets come from.
var budgetKeys = []string{"harness.max_turns", "harness.max_tool_calls", "harness.max_total_tokens", "harness.max_active_seconds"}

func budgetKey(key string) bool { return contains(budgetKeys, key) }

// budgetsOf reads the task budgets from cfg.
func budgetsOf(cfg *config.Config) budgets {
	return budgets{MaxTurns: int(cfg.Int("harness.max_turns")), MaxToolCalls: int(cfg.Int("harness.max_tool_calls")),
		MaxTokens: cfg.Int("harness.max_total_tokens"), MaxActive: cfg.Seconds("harness.max_active_seconds")}
}

// setBudgets queues new limits for the task's next safe boundary.
func (b *Inbox) setBudgets(l budgets) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.budgets = &l
}

// takeBudgets returns queued limits once (nil: none).
func (b *Inbox) takeBudgets() *budgets {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.budgets
	b.budgets = nil
	return l
}

// applyBudgets takes limits applied since the last turn.
func (a *run) applyBudgets() {
	if a.Inbox == nil {
		return
	}
	l := a.Inbox.takeBudgets()
	if l == nil {
		return
	}
	a.budget.SetLimits(l.limits())
	a.steps.MaxTurns = orDefault(l.MaxTurns, defaultMaxTurns)
}
