package provider

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// probabilitySlack is how far a distribution's sum may stray from 1.
const probabilitySlack = 0.01

type wireLaya struct {
	Model   *string                    `json:"model"`
	Answers map[string]json.RawMessage `json:"answers"`
	Usage   *struct {
		PromptTokens *int64 `json:"prompt_tokens"`
		InputTokens  *int64 `json:"input_tokens"`
	} `json:"usage"`
	Action *struct {
		ActProbability *float64 `json:"act_probability"`
	} `json:"action"`
	Routing json.RawMessage `json:"routing"`
}

type wireAnswer struct {
	Type             *string            `json:"type"`
	Choice           *string            `json:"choice"`
	Score            *float64           `json:"score"`
	Noul             *float64           `json:"noul"`
	Probabilities    map[string]float64 `json:"probabilities"`
	Confidence       *float64           `json:"confidence"`
	AnswerConfidence *float64           `json:"answer_confidence"`
}

// decodeLaya validates raw against the questions asked.
func decodeLaya(raw []byte, asked map[string]Question) (*LayaResponse, error) {
	var w wireLaya
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, newError(ClassProtocol, "the Laya answer is not valid JSON")
	}
	if w.Answers == nil {
		return nil, newError(ClassProtocol, "the Laya answer has no answers object")
	}
	out := &LayaResponse{Shape: ShapeJev, Answers: map[string]Answer{}, Usage: Usage{Source: UsageUnknown}, Routing: w.Routing}
	if w.Model != nil {
		out.Model = *w.Model
	}
	if w.Action != nil || len(w.Routing) > 0 {
		out.Shape = ShapeFull
	}
	if w.Action != nil && w.Action.ActProbability != nil {
		p := *w.Action.ActProbability
		if !isProbability(p) {
			return nil, newError(ClassProtocol, "action.act_probability %v is outside [0,1]", p)
		}
		out.ActProbability = &p
	}
	if w.Usage != nil {
		in := w.Usage.PromptTokens
		if in == nil {
			in = w.Usage.InputTokens
		}
		if in != nil {
			out.Usage = Usage{Input: in, Source: UsageReported}
		}
	}
	for name := range w.Answers {
		if _, ok := asked[name]; !ok {
			return nil, answerError(name, "answers a question that was not asked")
		}
	}
	for name, q := range asked {
		rawA, ok := w.Answers[name]
		if !ok {
			return nil, answerError(name, "is missing from the answers")
		}
		a, err := validateAnswer(name, q, rawA)
		if err != nil {
			return nil, err
		}
		if a.AnswerConfidence != nil {
			out.Shape = ShapeFull
		}
		out.Answers[name] = a
	}
	return out, nil
}

func answerError(name, format string, args ...any) error {
	return newError(ClassProtocol, "Laya answer %q %s", printable(clip(name, 64)), fmt.Sprintf(format, args...)).
		With("question", printable(clip(name, 64)))
}

func validateAnswer(name string, q Question, raw json.RawMessage) (Answer, error) {
	var w wireAnswer
	if err := json.Unmarshal(raw, &w); err != nil {
		return Answer{}, answerError(name, "is not a JSON object")
	}
	typ := inferType(w)
	if w.Type != nil {
		typ = QuestionType(*w.Type)
	}
	switch typ {
	case QuestionChoice, QuestionScore, QuestionNoul:
	default:
		return Answer{}, answerError(name, "has unknown answer type %q", printable(clip(string(typ), 32)))
	}
	if typ != q.Type {
		return Answer{}, answerError(name, "is a %s answer to a %s question", typ, q.Type)
	}
	a := Answer{Type: typ, Probabilities: w.Probabilities, Confidence: w.Confidence, AnswerConfidence: w.AnswerConfidence}
	for field, v := range map[string]*float64{"confidence": w.Confidence, "answer_confidence": w.AnswerConfidence} {
		if v != nil && !isProbability(*v) {
			return Answer{}, answerError(name, "has %s %v outside [0,1]", field, *v)
		}
	}
	switch typ {
	case QuestionNoul:
		if w.Noul == nil {
			return Answer{}, answerError(name, "has no noul probability")
		}
		if !isProbability(*w.Noul) {
			return Answer{}, answerError(name, "has noul %v outside [0,1]", *w.Noul)
		}
		a.Noul = w.Noul
		return a, nil
	case QuestionChoice:
		return a, validateChoice(name, q, w, &a)
	default:
		return a, validateScore(name, q, w, &a)
	}
}

func inferType(w wireAnswer) QuestionType {
	switch {
	case w.Noul != nil:
		return QuestionNoul
	case w.Choice != nil:
		return QuestionChoice
	case w.Score != nil:
		return QuestionScore
	}
	return ""
}

func validateChoice(name string, q Question, w wireAnswer, a *Answer) error {
	if w.Choice == nil {
		return answerError(name, "has no choice")
	}
	if _, ok := q.Criteria[*w.Choice]; !ok {
		return answerError(name, "chose %q, which was not offered", printable(clip(*w.Choice, 64)))
	}
	if w.Confidence == nil {
		return answerError(name, "has no confidence")
	}
	offered := map[string]bool{}
	for k := range q.Criteria {
		offered[k] = true
	}
	if err := validateDistribution(name, w.Probabilities, offered); err != nil {
		return err
	}
	a.Choice = *w.Choice
	return nil
}

func validateScore(name string, q Question, w wireAnswer, a *Answer) error {
	levels := len(q.Levels)
	if w.Score == nil {
		return answerError(name, "has no score")
	}
	if math.IsNaN(*w.Score) || *w.Score < 0 || *w.Score > float64(levels-1) {
		return answerError(name, "has score %v outside [0,%d]", *w.Score, levels-1)
	}
	if w.Confidence == nil {
		return answerError(name, "has no confidence")
	}
	offered := map[string]bool{}
	for i := range levels {
		offered[strconv.Itoa(i)] = true
	}
	if err := validateDistribution(name, w.Probabilities, offered); err != nil {
		return err
	}
	a.Score = w.Score
	return nil
}

// validateDistribution requires one probability per offered option, each
// in [0,1], summing to 1 within probabilitySlack.
func validateDistribution(name string, p map[string]float64, offered map[string]bool) error {
	if len(p) == 0 {
		return answerError(name, "has no probabilities")
	}
	sum := 0.0
	for k, v := range p {
		if !offered[k] {
			return answerError(name, "has a probability for %q, which was not offered", printable(clip(k, 64)))
		}
		if !isProbability(v) {
			return answerError(name, "has probability %v for %q outside [0,1]", v, printable(clip(k, 64)))
		}
		sum += v
	}
	for k := range offered {
		if _, ok := p[k]; !ok {
			return answerError(name, "has no probability for offered option %q", printable(clip(k, 64)))
		}
	}
	if math.Abs(sum-1) > probabilitySlack {
		return answerError(name, "has probabilities summing to %.4f, not 1", sum)
	}
	return nil
}

func isProbability(v float64) bool { return !math.IsNaN(v) && v >= 0 && v <= 1 }
