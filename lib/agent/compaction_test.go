package agent

import (
	"strings"
	"testing"
)

func history(n int) []message {
	msgs := []message{{Role: roleSystem, Content: "sys"}, {Role: roleUser, Content: "fix it"}}
	for i := 0; i < n; i++ {
		id := "c" + string(rune('a'+i))
		msgs = append(msgs,
			message{Role: roleAssistant, ToolCalls: []toolCall{{ID: id + "1", Name: "view"}, {ID: id + "2", Name: "view"}}},
			message{Role: roleTool, ToolCallID: id + "1", Content: strings.Repeat("x", 400)},
			message{Role: roleTool, ToolCallID: id + "2", Content: strings.Repeat("y", 400)})
	}
	return msgs
}

func TestCompactionThresholdAndPairs(t *testing.T) {
	l := contextLimits{Window: 1000, ReservedOutput: 300, Overhead: 100, KeepRecent: 4}
	if l.available() != 600 || l.trigger() != 480 {
		t.Fatalf("available %d trigger %d", l.available(), l.trigger())
	}
	small, err := planCompaction(history(1), 0, l)
	if err != nil || small.Needed {
		t.Fatalf("small history: %+v %v", small, err)
	}
	msgs := history(5)
	p, err := planCompaction(msgs, 0, l)
	if err != nil || !p.Needed {
		t.Fatalf("large history: %+v %v", p, err)
	}
	if p.From != 2 || msgs[p.To].Role != roleAssistant {
		t.Fatalf("cut splits a tool exchange: from %d to %d (%s)", p.From, p.To, msgs[p.To].Role)
	}
	open := map[string]bool{}
	for _, m := range msgs[p.From:p.To] {
		for _, c := range m.ToolCalls {
			open[c.ID] = true
		}
		delete(open, m.ToolCallID)
	}
	if len(open) != 0 {
		t.Fatalf("summarized range leaves calls without results: %v", open)
	}
	s, err := parseSummary(`{"decisions":["d"],"constraints":[],"changed_files":["src/lib.rs"],"verification":[],"unresolved_failures":[],"unknown_operations":[],"outstanding_work":["rerun"]}`)
	if err != nil {
		t.Fatal(err)
	}
	out := applyCompaction(msgs, p, s, "art_1")
	if out[0].Content != "sys" || out[1].Content != "fix it" || !strings.Contains(out[2].Content, "art_1") || len(out) != 3+len(msgs)-p.To {
		t.Fatalf("compacted context wrong: %d messages", len(out))
	}
	if estimateAll(out, 0) >= estimateAll(msgs, 0) {
		t.Fatal("compaction did not shrink the context")
	}
	req := compactionRequest(msgs, p)
	if len(req) != 2 || !strings.Contains(req[1].Content, "result of ca1") {
		t.Fatal("compaction request lacks the history")
	}
}

func TestCompactionWithNothingEligibleBlocks(t *testing.T) {
	msgs := []message{{Role: roleSystem, Content: strings.Repeat("s", 4000)}, {Role: roleUser, Content: "x"}}
	_, err := planCompaction(msgs, 0, contextLimits{Window: 1000, ReservedOutput: 100})
	if err == nil || !strings.Contains(err.Error(), "no older history") {
		t.Fatalf("want a blocked plan, got %v", err)
	}
	if _, err := planCompaction(msgs, 0, contextLimits{Window: 100, ReservedOutput: 100}); err == nil {
		t.Fatal("a window with no input budget was accepted")
	}
}

func TestSummaryStructureIsValidated(t *testing.T) {
	bad := []string{
		`not json`,
		`{"decisions":[]}`,
		`{"decisions":"x","constraints":[],"changed_files":[],"verification":[],"unresolved_failures":[],"unknown_operations":[],"outstanding_work":[]}`,
		`{"decisions":[],"constraints":[],"changed_files":[],"verification":[],"unresolved_failures":[],"unknown_operations":[],"outstanding_work":[],"extra":1}`,
		`{"decisions":["` + strings.Repeat("x", maxSummaryBytes) + `"],"constraints":[],"changed_files":[],"verification":[],"unresolved_failures":[],"unknown_operations":[],"outstanding_work":[]}`,
	}
	for _, b := range bad {
		if _, err := parseSummary(b); err == nil {
			t.Errorf("accepted invalid summary %.60q", b)
		}
	}
}
