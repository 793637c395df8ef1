package observe

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/telemetry"
)

// answeredRecord builds an answered record the way export decodes one.
func answeredRecord(t *testing.T, answers string, actual any) EvalRecord {
	t.Helper()
	var a any
	if err := json.Unmarshal([]byte(answers), &a); err != nil {
		t.Fatal(err)
	}
	return EvalRecord{Status: "answered", Observed: map[string]any{"answers": a}, ActualAction: actual}
}

// The report and the agent's fluzo.laya.agreement metric share one
// definition: both answer shapes are read, and a recommendation with no
// runtime action is no_action, not a disagreement.
func TestReportAgreementMatchesTheTelemetryDefinition(t *testing.T) {
	recs := []EvalRecord{
		answeredRecord(t, `{"next_action":"retry"}`, "retry"),
		answeredRecord(t, `{"next_action":{"type":"choice","choice":"continue"}}`, "continue"),
		answeredRecord(t, `{"next_action":{"type":"choice","choice":"stop"}}`, "continue"),
		answeredRecord(t, `{"next_action":"retry"}`, nil),
	}
	rep := Report(recs, telemetry.QuestionNextAction)
	tally := map[string]int{}
	for _, r := range recs {
		raw, _ := json.Marshal(r.Observed["answers"])
		actual, _ := r.ActualAction.(string)
		tally[telemetry.LayaAgreement(telemetry.RecommendedAction(raw, telemetry.QuestionNextAction), actual)]++
	}
	if rep.Agreement.Matches != tally[telemetry.AgreementAgree] || rep.Agreement.Samples != tally[telemetry.AgreementAgree]+tally[telemetry.AgreementDisagree] || rep.NoAction != tally[telemetry.AgreementNoAction] {
		t.Fatalf("report %+v (no_action %d) disagrees with the telemetry tally %v", rep.Agreement, rep.NoAction, tally)
	}
	if rep.Agreement.Matches != 2 || rep.Agreement.Samples != 3 || rep.NoAction != 1 {
		t.Fatalf("agreement %+v no_action %d, want 2 of 3 and 1", rep.Agreement, rep.NoAction)
	}
}

// Replay shows a message's size and tool-call count, never its content.
func TestReplayMessageStepShowsSizeNotContent(t *testing.T) {
	ev := core.Event{Type: core.EvMessage, Data: json.RawMessage(`{"content":"secret plan","role":"assistant","tool_calls":2}`)}
	s := EntryOf(ev)
	if s.Action != "message (11 bytes)" || s.Outcome != "2 tool call(s)" || s.Actor != "model" {
		t.Fatalf("step %+v", s)
	}
	if strings.Contains(s.Action+s.Outcome+s.Policy, "secret") {
		t.Fatalf("content replayed: %+v", s)
	}
}
