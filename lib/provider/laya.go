package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// QuestionType is a Laya question type.
type QuestionType string

// Laya question types.
const (
	QuestionChoice QuestionType = "choice"
	QuestionScore  QuestionType = "score"
	QuestionNoul   QuestionType = "noul"
)

// Question is one typed question. Choice questions offer Criteria
// (label → description); score questions offer ordered Levels (low to
// high); noul questions are yes/no about Instructions.
type Question struct {
	Type         QuestionType
	Instructions string
	Criteria     map[string]string
	Levels       []string
}

// LayaRequest is one POST /v1/systemone.
type LayaRequest struct {
	Model     string
	State     string
	Questions map[string]Question
}

// Answer is one validated answer. Probabilities, Confidence (the
// provider's) and AnswerConfidence (Laya's full response only) are
// distinct observations; none of them authorizes anything.
type Answer struct {
	Type             QuestionType       `json:"type"`
	Choice           string             `json:"choice,omitempty"`
	Score            *float64           `json:"score,omitempty"`
	Noul             *float64           `json:"noul,omitempty"`
	Probabilities    map[string]float64 `json:"probabilities,omitempty"`
	Confidence       *float64           `json:"confidence,omitempty"`
	AnswerConfidence *float64           `json:"answer_confidence,omitempty"`
}

// Laya response shapes.
const (
	ShapeFull = "full" // Laya's response with action, routing, answer_confidence
	ShapeJev  = "jev"  // the strict Jev shape: model, answers, usage
)

// LayaResponse is a validated Laya answer set. ActProbability is
// action.act_probability when present; Routing is kept raw and never
// acted on.
type LayaResponse struct {
	Model          string            `json:"model"`
	Shape          string            `json:"shape"`
	Answers        map[string]Answer `json:"answers"`
	ActProbability *float64          `json:"act_probability,omitempty"`
	Usage          Usage             `json:"usage"`
	Routing        json.RawMessage   `json:"routing,omitempty"`
	Status         int               `json:"status"`
	Duration       time.Duration     `json:"duration_ns"`
}

// Laya is a client of a Laya (System One) decision endpoint: BaseURL is
// e.g. http://127.0.0.1:8080/v1 or http://host/upstream/laya/v1.
// Observations are never retried and never follow redirects.
type Laya struct{ c *Client }

// NewLaya returns a Laya client; Retries is ignored (always 0).
func NewLaya(ep Endpoint) (*Laya, error) {
	ep.Retries = 0
	c, err := New(ep)
	if err != nil {
		return nil, err
	}
	return &Laya{c: c}, nil
}

// Ask posts req and returns the strictly validated answers. Every failure
// is a typed provider error (protocol_error for an invalid answer, with
// Details["question"] naming it).
func (l *Laya) Ask(ctx context.Context, req LayaRequest) (*LayaResponse, error) {
	body, err := encodeLaya(req)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	t := l.c.ep.Timeouts
	ctx, cancel := context.WithTimeoutCause(ctx, t.Total, &phaseError{class: ClassTimeoutTotal})
	defer cancel()
	actx, watch := startPhases(ctx, t, false)
	defer watch.stop()
	resp, err := l.c.send(actx, http.MethodPost, "/systemone", body, false)
	if err != nil {
		return nil, typeFailure(actx, err, false)
	}
	defer resp.Body.Close()
	watch.headers()
	if err := l.c.checkStatus(resp); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(touchReader{resp.Body, watch}, int64(l.c.ep.Limits.MaxLineBytes)+1))
	if err != nil {
		return nil, typeFailure(actx, err, false)
	}
	if len(raw) > l.c.ep.Limits.MaxLineBytes {
		return nil, newError(ClassProtocol, "the Laya answer exceeds %d bytes", l.c.ep.Limits.MaxLineBytes)
	}
	out, err := decodeLaya(raw, req.Questions)
	if err != nil {
		return nil, err
	}
	out.Status, out.Duration = resp.StatusCode, time.Since(start)
	return out, nil
}

func encodeLaya(req LayaRequest) ([]byte, error) {
	if len(req.Questions) == 0 {
		return nil, core.Errorf(core.CodeInvalidRequest, "a Laya request needs at least one question")
	}
	qs := map[string]any{}
	for name, q := range req.Questions {
		m := map[string]any{"type": q.Type, "instructions": q.Instructions}
		switch q.Type {
		case QuestionChoice:
			if len(q.Criteria) < 2 {
				return nil, core.Errorf(core.CodeInvalidRequest, "choice question %q needs at least two criteria", name)
			}
			m["criteria"] = q.Criteria
		case QuestionScore:
			if len(q.Levels) < 2 {
				return nil, core.Errorf(core.CodeInvalidRequest, "score question %q needs at least two levels", name)
			}
			m["criteria"] = q.Levels
		case QuestionNoul:
		default:
			return nil, core.Errorf(core.CodeInvalidRequest, "question %q has unknown type %q", name, q.Type).
				WithHint("use choice, score or noul")
		}
		qs[name] = m
	}
	return core.MarshalVerbatim(map[string]any{"model": req.Model, "state": req.State, "questions": qs})
}
