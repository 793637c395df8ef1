package telemetry

import "encoding/json"

// QuestionNextAction is the Laya question whose answer is a recommended
// next action, comparable with what the runtime actually did.
const QuestionNextAction = "next_action"

// Laya agreement values (the fluzo.laya.agreement label and the
// `fluzo-observe eval report` tally share them).
const (
	AgreementAgree    = "agree"
	AgreementDisagree = "disagree"
	// AgreementNoAction: Laya recommended something but the runtime
	// recorded no action at that point, so there is nothing to agree with.
	AgreementNoAction = "no_action"
)

// RecommendedAction reads the answer to question from an observation's
// answers ({"next_action":"retry"} or {"next_action":{"choice":"retry"}});
// "" when the question was not answered with a choice.
func RecommendedAction(answers json.RawMessage, question string) string {
	var byQuestion map[string]json.RawMessage
	if json.Unmarshal(answers, &byQuestion) != nil {
		return ""
	}
	raw, ok := byQuestion[question]
	if !ok {
		return ""
	}
	var choice string
	if json.Unmarshal(raw, &choice) == nil {
		return choice
	}
	var obj struct {
		Choice string `json:"choice"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	return obj.Choice
}

// LayaAgreement is the one definition of unlabelled agreement between a
// recommendation and the runtime's actual action: "" (not comparable)
// without a recommendation, no_action without an actual action, else
// agree or disagree. It measures agreement with the runtime, never
// accuracy: only human labels say what was right.
func LayaAgreement(recommended, actual string) string {
	switch {
	case recommended == "":
		return ""
	case actual == "":
		return AgreementNoAction
	case recommended == actual:
		return AgreementAgree
	}
	return AgreementDisagree
}
