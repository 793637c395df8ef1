package agent

import (
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/admit"
)

// The diagnose answer's live meters: active time counts only while the
// task runs (a wait on the user pauses it), and tokens reserved for a
// request in flight are reported apart from those charged.
func TestLiveBudgetMetersExcludeWaitsAndShowReservations(t *testing.T) {
	p := &Port{Owner: &Owner{}}
	if p.budgetMeters("tsk_1") != nil {
		t.Fatal("no task runs: no live meters")
	}
	now := time.Unix(1_700_000_000, 0)
	b := admit.NewBudget(admit.Limits{Turns: 30, Active: 20 * time.Minute, ToolCalls: 100, Tokens: 50_000}, admit.Usage{Turns: 2}, func() time.Time { return now })
	b.Run()
	now = now.Add(90 * time.Second)
	b.Pause() // waiting for an approval
	now = now.Add(time.Hour)
	if _, err := b.ReserveTokens(1200); err != nil {
		t.Fatal(err)
	}
	p.Owner.active.refs = Refs{Task: "tsk_1"}
	p.Owner.active.setBudget(b)
	if p.budgetMeters("tsk_other") != nil {
		t.Fatal("another task's diagnosis shows the running task's budget")
	}
	m := p.budgetMeters("tsk_1")
	used, limits := m["used"].(map[string]any), m["limits"].(map[string]any)
	if used["active_seconds"] != 90.0 || used["reserved_tokens"] != int64(1200) || limits["active_seconds"] != 1200.0 || limits["total_tokens"] != int64(50_000) {
		t.Fatalf("meters %v", m)
	}
	// The budget does not count turns (the step limiter does): none are
	// claimed. Budgets not set are null, never the 2^60 that stands for
	// them inside (a screen printed "0 of 1152921504606846976").
	if used["turns"] != nil || limits["turns"] != nil {
		t.Fatalf("turns claimed by the budget: %v", m)
	}
	p.Owner.active.setBudget(admit.NewBudget(budgets{}.limits(), admit.Usage{}, func() time.Time { return now }))
	limits = p.budgetMeters("tsk_1")["limits"].(map[string]any)
	if limits["active_seconds"] != nil || limits["total_tokens"] != nil || limits["tool_calls"] != int64(defaultMaxToolCalls) {
		t.Fatalf("unset budgets: %v", limits)
	}
}
