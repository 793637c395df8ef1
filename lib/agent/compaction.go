package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Compaction defaults (PRD §16.1 requires finite documented defaults).
const (
	defaultCompactionThreshold = 0.8
	defaultKeepRecent          = 2
	defaultReservedOutput      = 4096
	defaultProtocolOverhead    = 512
	maxSummaryBytes            = 16 << 10
)

// Blocked reasons when compaction cannot proceed; each is distinct so the
// user can tell what to change.
const (
	reasonCompactionNothingEligible = "compaction_nothing_eligible"
	reasonCompactionInvalidSummary  = "compaction_invalid_summary"
	reasonCompactionStillTooLarge   = "compaction_still_too_large"
	reasonCompactionProviderError   = "compaction_provider_error"
	reasonCompactionBudget          = "compaction_budget_exhausted"
	reasonCompactionPersistence     = "compaction_persistence_failed"
	reasonCompactionCancelled       = "compaction_cancelled"
)

// contextLimits describe the effective context window of the model.
type contextLimits struct {
	Window         int // tokens the model accepts in total
	ReservedOutput int // tokens kept free for the answer
	Overhead       int // protocol overhead per request
	Threshold      float64
	KeepRecent     int // messages always kept verbatim at the end
}

// available is the input budget: window − reserved output − overhead.
func (l contextLimits) available() int { return l.Window - l.ReservedOutput - l.Overhead }

// trigger is the estimated input size at which compaction starts.
func (l contextLimits) trigger() int {
	t := l.Threshold
	if t <= 0 || t > 1 {
		t = defaultCompactionThreshold
	}
	return int(t * float64(l.available()))
}

// estimateTokens is the runtime's deliberately pessimistic estimate of a
// message's size (about four bytes per token plus framing). It is an
// estimate, recorded as such, never a reported usage.
func estimateTokens(m message) int {
	n := len(m.Content) + len(m.ToolCallID)
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Name) + len(c.Args)
	}
	return n/4 + 8
}

// estimateAll sums estimateTokens over msgs plus the tool schemas.
func estimateAll(msgs []message, schemaBytes int) int {
	total := schemaBytes / 4
	for _, m := range msgs {
		total += estimateTokens(m)
	}
	return total
}

// compactionPlan says whether to compact and which messages to summarize:
// Head messages stay, [From, To) are summarized, the rest is kept.
type compactionPlan struct {
	Needed    bool `json:"needed"`
	Estimated int  `json:"estimated_tokens"`
	Trigger   int  `json:"trigger_tokens"`
	From      int  `json:"from"`
	To        int  `json:"to"`
}

// planCompaction decides whether the next request would exceed the
// threshold and, if so, picks the eligible older history. The cut never
// separates a tool call from its results: the kept tail starts at a
// message that is not a tool result.
func planCompaction(msgs []message, schemaBytes int, l contextLimits) (compactionPlan, error) {
	if l.available() <= 0 {
		return compactionPlan{}, core.Errorf(core.CodeInvalidConfiguration,
			"the context window (%d) leaves no input budget after reserving %d output and %d overhead tokens", l.Window, l.ReservedOutput, l.Overhead).
			WithHint("raise the model's context_window or lower reserved output in .fluzo")
	}
	p := compactionPlan{Estimated: estimateAll(msgs, schemaBytes), Trigger: l.trigger()}
	if p.Estimated <= p.Trigger {
		return p, nil
	}
	p.Needed = true
	head := headLength(msgs)
	keep := l.KeepRecent
	if keep <= 0 {
		keep = defaultKeepRecent
	}
	cut := len(msgs) - keep
	for cut > head && msgs[cut].Role == roleTool {
		cut-- // keep the assistant call with its results
	}
	if cut <= head {
		return p, core.Errorf(core.CodeFailed, "the context is over its threshold but no older history is eligible for compaction").
			With("reason", reasonCompactionNothingEligible).
			WithHint("raise the context window or reduce the request and instructions")
	}
	p.From, p.To = head, cut
	return p, nil
}

// headLength counts the leading system messages and the first user
// request: they are current instructions and are never summarized.
func headLength(msgs []message) int {
	i := 0
	for i < len(msgs) && msgs[i].Role == roleSystem {
		i++
	}
	if i < len(msgs) && msgs[i].Role == roleUser {
		i++
	}
	return i
}

// summary is the structure a compaction summary must have. Every field is
// required (an empty list is fine) so that a summary cannot silently drop
// a category such as unknown operations.
type summary struct {
	Decisions          []string `json:"decisions"`
	Constraints        []string `json:"constraints"`
	ChangedFiles       []string `json:"changed_files"`
	Verification       []string `json:"verification"`
	UnresolvedFailures []string `json:"unresolved_failures"`
	UnknownOperations  []string `json:"unknown_operations"`
	OutstandingWork    []string `json:"outstanding_work"`
}

var summaryFields = []string{"decisions", "constraints", "changed_files", "verification", "unresolved_failures", "unknown_operations", "outstanding_work"}

// parseSummary validates a model-produced summary: one JSON object with
// exactly the summary fields, each a list of strings, within the size limit.
func parseSummary(text string) (summary, error) {
	text = strings.TrimSpace(text)
	text = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(text, "```json"), "```"), "```")
	invalid := func(format string, args ...any) error {
		return core.Errorf(core.CodeFailed, "the compaction summary is invalid: "+format, args...).
			With("reason", reasonCompactionInvalidSummary).
			WithHint("retry the task; the history was left as it was")
	}
	if len(text) > maxSummaryBytes {
		return summary{}, invalid("%d bytes exceeds the %d byte limit", len(text), maxSummaryBytes)
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &present); err != nil {
		return summary{}, invalid("not a JSON object")
	}
	for _, f := range summaryFields {
		if _, ok := present[f]; !ok {
			return summary{}, invalid("field %q is missing", f)
		}
	}
	var s summary
	if err := core.DecodeStrict([]byte(text), &s); err != nil {
		return summary{}, invalid("%s", core.AsError(err).Message)
	}
	return s, nil
}

// compactionRequest builds the messages of the summarization request for
// msgs[p.From:p.To].
func compactionRequest(msgs []message, p compactionPlan) []message {
	var b strings.Builder
	for i, m := range msgs[p.From:p.To] {
		fmt.Fprintf(&b, "[%d] %s", p.From+i, m.Role)
		if m.ToolCallID != "" {
			fmt.Fprintf(&b, " (result of %s)", m.ToolCallID)
		}
		b.WriteString(": ")
		b.WriteString(m.Content)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "\n  call %s %s %s", c.ID, c.Name, string(c.Args))
		}
		b.WriteString("\n")
	}
	return []message{
		{Role: roleSystem, Content: compactionInstruction},
		{Role: roleUser, Content: b.String()},
	}
}

const compactionInstruction = `Summarize the conversation history below for a coding agent that will continue
the task. Reply with one JSON object and nothing else, with exactly these keys,
each a list of short strings: decisions, constraints, changed_files,
verification, unresolved_failures, unknown_operations, outstanding_work.
Do not invent facts that are not in the history.`

// applyCompaction returns the new active context: the head, one message
// carrying the summary with its source range and artifact, then the kept
// tail. The original history is not modified.
func applyCompaction(msgs []message, p compactionPlan, s summary, artifact string) []message {
	body, _ := core.MarshalVerbatim(s)
	note := message{Role: roleUser, Section: "compaction", Content: fmt.Sprintf(
		"Summary of earlier history (messages %d-%d, artifact %s). It is lossy model-written context, not current state or instructions:\n%s",
		p.From, p.To-1, artifact, body)}
	out := make([]message, 0, p.From+1+len(msgs)-p.To)
	out = append(out, msgs[:p.From]...)
	out = append(out, note)
	return append(out, msgs[p.To:]...)
}
