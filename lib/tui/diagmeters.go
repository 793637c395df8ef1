package tui

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The diagnostics view's budget meters: each use against its limit, from
// the freshest record that has it — the running attempt's live budget
// (the diagnose answer's "live_budget"), else the last budget event (written
// when a budget runs out or is extended), else the result record and the
// diagnosis. A figure no record has is unknown, never 0.

// budgetFigures is one source's consumption; a nil field is not known.
type budgetFigures struct {
	Turns      *int64   `json:"turns"`
	Active     *float64 `json:"active_seconds"`
	ToolCalls  *int64   `json:"tool_calls"`
	Tokens     *int64   `json:"total_tokens"`
	Estimated  *int64   `json:"tokens_estimated_requests"`
	Reserved   *int64   `json:"reserved_tokens"`
	fromRecord string   // what the figures come from, for the label
}

// liveBudget is the diagnose answer's "live_budget" for a running task.
type liveBudget struct {
	Live   bool          `json:"live"`
	Used   budgetFigures `json:"used"`
	Limits struct {
		Turns     *int64   `json:"turns"`
		Active    *float64 `json:"active_seconds"`
		ToolCalls *int64   `json:"tool_calls"`
		Tokens    *int64   `json:"total_tokens"`
	} `json:"limits"`
}

// diagBudgetAck keeps the live budget a diagnose answer carries (and
// forgets a stale one when the task no longer runs).
func (a *App) diagBudgetAck(task string, raw json.RawMessage) {
	var d struct {
		Budget *liveBudget `json:"live_budget"`
	}
	decodeData(raw, &d)
	if a.td.budgets == nil {
		a.td.budgets = map[string]*liveBudget{}
	}
	if d.Budget == nil || !d.Budget.Live {
		delete(a.td.budgets, task)
		return
	}
	a.td.budgets[task] = d.Budget
}

// lastBudgetEvent is the usage the newest budget event recorded. Its
// active time is a duration in nanoseconds (admit.Usage).
func lastBudgetEvent(d *diagRecord) *budgetFigures {
	for i := len(d.Budget) - 1; i >= 0; i-- {
		var ev struct {
			Usage *struct {
				Turns     *int64 `json:"turns"`
				Active    *int64 `json:"active"`
				ToolCalls *int64 `json:"tool_calls"`
				Tokens    *int64 `json:"total_tokens"`
			} `json:"usage"`
		}
		if json.Unmarshal(d.Budget[i], &ev) != nil || ev.Usage == nil {
			continue
		}
		f := &budgetFigures{Turns: ev.Usage.Turns, ToolCalls: ev.Usage.ToolCalls, Tokens: ev.Usage.Tokens, fromRecord: "the last budget event"}
		if ev.Usage.Active != nil {
			s := float64(*ev.Usage.Active) / float64(time.Second)
			f.Active = &s
		}
		return f
	}
	return nil
}

// resultTokens is the result record's token account for the task, if the
// screen has it: locally estimated tokens of requests without usage.
func (a *App) resultTokens(task string) (estimated, unreported, requests int64, ok bool) {
	r := a.td.result
	if r == nil || r.Task != task || len(r.Usage) == 0 {
		return 0, 0, 0, false
	}
	var u struct {
		Estimated *int64 `json:"estimated"`
		Unknown   *int64 `json:"requests_without_usage"`
		Requests  *int64 `json:"requests"`
	}
	if json.Unmarshal(r.Usage, &u) != nil || u.Estimated == nil || u.Unknown == nil || u.Requests == nil {
		return 0, 0, 0, false
	}
	return *u.Estimated, *u.Unknown, *u.Requests, true
}

func count(n *int64) string {
	if n == nil {
		return "unknown"
	}
	return fmt.Sprint(*n)
}

// ofLimit is "used of limit"; the live budget's limits win over the
// settings' (an extension raised them).
func ofLimit(used, liveLimit, setting string) string {
	if liveLimit != "" && liveLimit != "unknown" {
		return used + " of " + liveLimit
	}
	return used + " of " + setting
}

func seconds(s *float64) string {
	if s == nil {
		return "unknown"
	}
	return formatDuration(time.Duration(*s * float64(time.Second)))
}

// meterLines are the diagnostics view's budget meters.
func (a *App) meterLines(task string, d *diagRecord) []line {
	live := a.td.budgets[task]
	var f *budgetFigures
	var lim liveBudget
	switch {
	case live != nil:
		f, lim = &live.Used, *live
		f.fromRecord = "live, while the task runs"
	default:
		f = lastBudgetEvent(d)
	}
	turns, tools := d.turns(), fmt.Sprint(d.Operations.Total)
	if r := a.td.result; f == nil && r != nil && r.Task == task {
		turns, tools = fmt.Sprint(r.Turns), fmt.Sprint(r.ToolCalls)
	}
	active := "unknown (recorded only while the task runs, or when a budget runs out or is extended)"
	charged := "unknown"
	if f != nil {
		// A live budget carries no turns (the loop's step limiter counts
		// them): the diagnosis' request count stays.
		if f.Turns != nil {
			turns = count(f.Turns)
		}
		tools, charged = count(f.ToolCalls), count(f.Tokens)
		if f.Active != nil {
			active = seconds(f.Active) + " (" + f.fromRecord + ")"
		}
	}
	out := []line{
		field("turns", ofLimit(turns, count(lim.Limits.Turns), a.limit("harness.max_turns"))),
		field("tool calls", ofLimit(tools, count(lim.Limits.ToolCalls), a.limit("harness.max_tool_calls"))),
		line{span(fmt.Sprintf("%-12s ", "active time"), theme.Muted), span(ofLimit(active, seconds(lim.Limits.Active), withUnit(a.limit("harness.max_active_seconds"), "s")), theme.Base), span(" · waits for you are not counted", theme.Subtle)},
		field("tokens", ofLimit(charged+" charged", count(lim.Limits.Tokens), a.limit("harness.max_total_tokens"))),
		field("  reported", d.tokens()+" (by the provider)"),
		field("  estimated", a.estimatedTokens(task, f)),
		field("  reserved", reservedTokens(live, d)),
	}
	return out
}

// estimatedTokens: what was charged at a local estimate because the
// provider reported no usage.
func (a *App) estimatedTokens(task string, f *budgetFigures) string {
	if est, unreported, reqs, ok := a.resultTokens(task); ok {
		if unreported == 0 {
			return fmt.Sprintf("none: all %d request(s) reported their usage", reqs)
		}
		return fmt.Sprintf("%d (locally, for %d of %d request(s) without reported usage)", est, unreported, reqs)
	}
	if f != nil && f.Estimated != nil {
		return fmt.Sprintf("%d request(s) charged at their full reservation (no usage reported)", *f.Estimated)
	}
	return "unknown"
}

// reservedTokens: the tokens held for requests in flight, known only for
// a running task (none can be in flight once it ended).
func reservedTokens(live *liveBudget, d *diagRecord) string {
	switch {
	case live != nil:
		return count(live.Used.Reserved) + " in flight"
	case !d.Task.active():
		return "none in flight (the task is not running)"
	}
	return "unknown (the runtime did not report its live budget)"
}
