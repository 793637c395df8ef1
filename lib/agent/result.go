package agent

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/worktree"
)

// Result is the final record of a headless run (DESIGN §5): always
// printed, whatever the exit code.
type Result struct {
	V            int              `json:"v"`
	Type         string           `json:"type"` // "result"
	Status       string           `json:"status"`
	Reason       string           `json:"reason,omitempty"`
	Session      string           `json:"session,omitempty"`
	Task         string           `json:"task,omitempty"`
	Attempt      string           `json:"attempt,omitempty"`
	Trace        string           `json:"trace,omitempty"`
	Turns        int              `json:"turns"`
	ToolCalls    int              `json:"tool_calls"`
	Verification Verdict          `json:"verification"`
	Diff         json.RawMessage  `json:"diff,omitempty"`
	Summary      string           `json:"summary,omitempty"`
	Loops        []Loop           `json:"loops,omitempty"`
	Usage        TokenAccount     `json:"usage"`
	Error        *core.Error      `json:"error,omitempty"`
	Pending      *PendingApproval `json:"pending,omitempty"`
	// Worktree is where a worktree task ran (its change awaits review).
	Worktree *worktree.Binding `json:"worktree,omitempty"`
}

// PendingApproval names the operation a headless run stopped at.
type PendingApproval struct {
	Operation string          `json:"operation"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	Rule      string          `json:"rule,omitempty"`
	// ServerHints are what an MCP server claims about the tool
	// (read_only, destructive, ...): shown to whoever approves, never
	// used to decide.
	ServerHints []string `json:"server_hints,omitempty"`
}

// ExitCode maps the result to the shared exit-code table.
func (r Result) ExitCode() int { return core.ExitFor(core.Code(r.Status)) }

// TokenAccount sums the tokens of a task's requests. Unknown stays
// unknown: Input and Output sum only reported usage and are null (not
// zero) when no request reported any; Unknown counts requests that
// reported none, whose local estimate is in Estimated.
type TokenAccount struct {
	Input     *int64 `json:"input"`
	Output    *int64 `json:"output"`
	Estimated int64  `json:"estimated"`
	Unknown   int    `json:"requests_without_usage"`
	Requests  int    `json:"requests"`
}

func addTo(sum **int64, n int64) {
	if *sum == nil {
		*sum = new(int64)
	}
	**sum += n
}

// add records one response's usage for the result (the budget itself is
// charged by admit.Budget).
func (a *TokenAccount) add(r modelResponse) {
	a.Requests++
	if r.Usage.Input != nil && r.Usage.Output != nil {
		addTo(&a.Input, *r.Usage.Input)
		addTo(&a.Output, *r.Usage.Output)
		return
	}
	a.Unknown++
	if r.Estimate.Input != nil {
		a.Estimated += *r.Estimate.Input
	}
	if r.Estimate.Output != nil {
		a.Estimated += *r.Estimate.Output
	}
}

// addStored counts a stored request of an earlier attempt. Its local
// estimate was never stored, so a request without usage adds to the
// unknown count only: the estimate stays a lower bound.
func (a *TokenAccount) addStored(r core.ProviderRequest) {
	a.Requests++
	if r.InputTokens != nil && r.OutputTokens != nil {
		addTo(&a.Input, *r.InputTokens)
		addTo(&a.Output, *r.OutputTokens)
		return
	}
	a.Unknown++
}

// failed records a request that was sent but produced no response: its
// usage is unknown, so it counts as a request without usage. charged is
// what the budget kept for it (nothing when the server answered with an
// error, the whole reservation when it may have processed the request).
func (a *TokenAccount) failed(charged int64) {
	a.Requests++
	a.Unknown++
	a.Estimated += charged
}
