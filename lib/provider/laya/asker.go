package laya

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/provider"
)

// decisionQuestions are the decision points offered to the observer and
// the typed question each asks.
var decisionQuestions = map[string][]Question{
	"task_start":    {{Type: QuestionClassification, Options: []string{"bugfix", "feature", "refactor", "question", "other"}}},
	"loop_detected": {{Type: QuestionNextAction, Options: NextActions}},
	"task_end":      {{Type: QuestionNextAction, Options: NextActions}},
}

// QuestionsAt returns the questions asked at a decision point (none for a
// point the observer does not know).
func QuestionsAt(point string) []Question { return decisionQuestions[point] }

// NewAsker turns observer queries into typed Laya choice questions sent
// with the provider's client to model.
func NewAsker(c *provider.Laya, model string) Asker {
	return func(ctx context.Context, q Query) (json.RawMessage, error) {
		qs := map[string]provider.Question{}
		for _, question := range q.Questions {
			crit := map[string]string{}
			for _, o := range question.Options {
				crit[o] = o
			}
			qs[question.Type] = provider.Question{Type: provider.QuestionChoice, Instructions: "Decision point " + q.Point + ": choose " + question.Type, Criteria: crit}
		}
		resp, err := c.Ask(ctx, provider.LayaRequest{Model: model, State: string(q.Snapshot), Questions: qs})
		if err != nil {
			return nil, err
		}
		return core.MarshalVerbatim(resp.Answers)
	}
}
