package telemetry

import (
	"encoding/json"
	"testing"
)

func TestRecommendedActionReadsBothAnswerShapes(t *testing.T) {
	cases := map[string]string{
		`{"next_action":"retry"}`:                               "retry",
		`{"next_action":{"type":"choice","choice":"continue"}}`: "continue",
		`{"other":"x"}`:                                         "",
		`{"next_action":42}`:                                    "",
		`not json`:                                              "",
		`{"next_action":{"type":"choice","choice":["a","b"]}}`: "",
	}
	for in, want := range cases {
		if got := RecommendedAction(json.RawMessage(in), QuestionNextAction); got != want {
			t.Errorf("RecommendedAction(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestLayaAgreementDefinition(t *testing.T) {
	cases := []struct{ rec, actual, want string }{
		{"", "continue", ""},
		{"retry", "", AgreementNoAction},
		{"retry", "retry", AgreementAgree},
		{"retry", "continue", AgreementDisagree},
	}
	for _, c := range cases {
		if got := LayaAgreement(c.rec, c.actual); got != c.want {
			t.Errorf("LayaAgreement(%q, %q) = %q, want %q", c.rec, c.actual, got, c.want)
		}
	}
}
