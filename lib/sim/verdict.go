package sim

import (
	"fmt"
	"maps"
)

// Verdict is the outcome of a scenario run: expected versus observed.
type Verdict struct {
	V              int            `json:"v"`
	Type           string         `json:"type"` // "verdict"
	OK             bool           `json:"ok"`
	Scenario       string         `json:"scenario,omitempty"`
	Requests       int            `json:"requests"`
	Steps          []StepReport   `json:"steps"`
	Unexpected     []Unexpected   `json:"unexpected,omitempty"`
	MaxConcurrent  map[string]int `json:"max_concurrent"`
	RedirectTarget TargetReport   `json:"redirect_target"`
	Problems       []string       `json:"problems,omitempty"`
}

// StepReport says how far one step was consumed.
type StepReport struct {
	ID       string `json:"id"`
	Endpoint string `json:"endpoint"`
	Required bool   `json:"required"`
	Expected int    `json:"expected"`
	Observed int    `json:"observed"`
}

// Unexpected is a request no step accepted.
type Unexpected struct {
	N            int      `json:"n"`
	Method       string   `json:"method"`
	Path         string   `json:"path"`
	Endpoint     string   `json:"endpoint,omitempty"`
	ExpectedStep string   `json:"expected_step,omitempty"`
	Why          string   `json:"why"`
	Observed     observed `json:"observed"`
}

// TargetReport counts what reached the redirect target (all must be zero).
type TargetReport struct {
	Hits        int64 `json:"hits"`
	Bytes       int64 `json:"bytes"`
	Credentials int64 `json:"credentials"`
}

// Verify returns the verdict so far: OK when no request was unexpected,
// every required step was consumed as often as scripted, and nothing
// reached the redirect target.
func (s *Server) Verify() Verdict {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := Verdict{V: 1, Type: "verdict", Scenario: s.sc.Name, Requests: s.n, Steps: []StepReport{},
		MaxConcurrent: maps.Clone(s.maxInflight),
		RedirectTarget: TargetReport{Hits: s.target.hits.Load(), Bytes: s.target.bytes.Load(),
			Credentials: s.target.credentials.Load()},
		Unexpected: append([]Unexpected(nil), s.unexpected...)}
	for _, ep := range []string{EndpointChat, EndpointLaya} {
		for _, st := range s.queues[ep].steps {
			rep := StepReport{ID: st.step.ID, Endpoint: ep, Required: !st.step.Optional, Expected: st.times(), Observed: st.used}
			v.Steps = append(v.Steps, rep)
			if rep.Required && rep.Observed < rep.Expected {
				v.Problems = append(v.Problems, fmt.Sprintf("step %s: expected %d request(s), observed %d", rep.ID, rep.Expected, rep.Observed))
			}
		}
	}
	for _, u := range v.Unexpected {
		v.Problems = append(v.Problems, fmt.Sprintf("request %d (%s %s) was unexpected: %s", u.N, u.Method, u.Path, u.Why))
	}
	if v.RedirectTarget.Hits > 0 {
		v.Problems = append(v.Problems, fmt.Sprintf("the redirect target was reached %d time(s) with %d body bytes", v.RedirectTarget.Hits, v.RedirectTarget.Bytes))
	}
	v.OK = len(v.Problems) == 0
	return v
}
